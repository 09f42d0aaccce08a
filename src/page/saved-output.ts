/**
 * Reading a truncated call's saved full output for the person at the page. Only files inside the data
 * folder can be read this way: the path comes from a tool's text, which a model or a plugin could have shaped.
 */
import { normalize } from "pathe";
import type { RuntimeFs } from "../runtime/types.js";

/** The app's data folder: saved full outputs live under it, outside the workspace. */
export const DATA_DIR = "/data";

/** A saved output bigger than this is shown from its start only: the page would not hold it whole. */
const SAVED_OUTPUT_VIEW_BYTES = 32 * 1024 * 1024;

export interface SavedOutput {
  path: string;
  text: string;
  /** The file's whole size in bytes; more than `text` holds when the file was over the view limit. */
  size: number;
  complete: boolean;
}

const within = (path: string, dir: string) => path.startsWith(`${dir}/`);

export async function readSavedOutput(fs: RuntimeFs, path: string): Promise<SavedOutput> {
  const wanted = normalize(path);
  if (!path.startsWith("/") || !within(wanted, DATA_DIR)) {
    throw new Error(
      `Only saved outputs under ${DATA_DIR} can be opened here; ${JSON.stringify(path)} is not one. Open other files from the file tree.`,
    );
  }
  const gone = () =>
    new Error(
      `The saved output ${wanted} no longer exists (saved outputs are removed after 7 days). Run the call again to see its output.`,
    );
  // A symlink inside the folder must not lead out of it.
  const real = await fs.realpath(wanted).catch(() => {
    throw gone();
  });
  const realDir = await fs.realpath(DATA_DIR).catch(() => DATA_DIR);
  if (!within(real, realDir)) throw new Error(`${wanted} leads outside ${DATA_DIR} (${real}); only saved outputs can be opened here.`);
  const stat = await fs.stat(real).catch(() => {
    throw gone();
  });
  if (stat.type !== "file") throw new Error(`${wanted} is a ${stat.type}, not a saved output file.`);
  const complete = stat.size <= SAVED_OUTPUT_VIEW_BYTES;
  const bytes = complete ? await fs.readFile(real) : await fs.read(real, { position: 0, length: SAVED_OUTPUT_VIEW_BYTES });
  return { path: wanted, text: new TextDecoder().decode(bytes), size: stat.size, complete };
}
