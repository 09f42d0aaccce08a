import type { Runtime } from "../../runtime/types.js";
import { filesFromZip, importFiles, zipFolder, type IncomingFile } from "../../workspace/transfer.js";
import { saveBytes } from "../download.js";
import { errorMessage } from "../../base/error-message.js";

async function readAll(files: FileList): Promise<IncomingFile[]> {
  return Promise.all(
    Array.from(files, async (file) => ({
      // A folder upload names each file by its path inside the chosen folder.
      path: file.webkitRelativePath || file.name,
      data: new Uint8Array(await file.arrayBuffer()),
    })),
  );
}

/** Files in (single files, a folder, a .zip) and out (the whole workspace as a .zip). */
export function TransferBar(props: { runtime: () => Runtime; readOnly: boolean; report: (message: string, isError?: boolean) => void }) {
  const upload = async (input: HTMLInputElement, unzip: boolean) => {
    const files = input.files;
    if (!files || files.length === 0) return;
    try {
      let incoming = await readAll(files);
      if (unzip) incoming = (await Promise.all(incoming.map((archive) => filesFromZip(archive.data)))).flat();
      const runtime = props.runtime();
      const written = await importFiles(runtime, runtime.root, incoming);
      props.report(`Imported ${written.length} file${written.length === 1 ? "" : "s"}.`);
    } catch (error) {
      props.report(`Import failed: ${errorMessage(error)}`, true);
    } finally {
      input.value = "";
    }
  };
  const downloadAll = async () => {
    try {
      const runtime = props.runtime();
      saveBytes(await zipFolder(runtime, runtime.root), "workspace.zip", "application/zip");
    } catch (error) {
      props.report(`Download failed: ${errorMessage(error)}`, true);
    }
  };
  return (
    <div class="transfer-bar" role="toolbar" aria-label="Files in and out">
      <label class="button" classList={{ disabled: props.readOnly }}>
        Upload files
        <input
          type="file"
          multiple
          disabled={props.readOnly}
          data-testid="upload-files"
          onChange={(e) => void upload(e.currentTarget, false)}
        />
      </label>
      <label class="button" classList={{ disabled: props.readOnly }}>
        Upload folder
        <input
          type="file"
          multiple
          disabled={props.readOnly}
          data-testid="upload-folder"
          {...{ webkitdirectory: "" }}
          onChange={(e) => void upload(e.currentTarget, false)}
        />
      </label>
      <label class="button" classList={{ disabled: props.readOnly }}>
        Import .zip
        <input
          type="file"
          accept=".zip,application/zip"
          disabled={props.readOnly}
          data-testid="upload-zip"
          onChange={(e) => void upload(e.currentTarget, true)}
        />
      </label>
      <button type="button" class="button" onClick={downloadAll}>
        Download .zip
      </button>
    </div>
  );
}
