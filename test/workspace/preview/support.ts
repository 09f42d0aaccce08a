import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execFileSync } from "node:child_process";
import type { PreviewFiles } from "../../../src/workspace/preview/build.js";

/** A folder of files on disk, read through PreviewFiles with a count of reads (to see what a rebuild reads). */
export async function folderWith(files: Record<string, string>) {
  const root = await realpath(await mkdtemp(join(tmpdir(), "wb-preview-")));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const reads: string[] = [];
  const previewFiles: PreviewFiles = {
    isFile: (path) =>
      stat(path).then(
        (s) => s.isFile(),
        () => false,
      ),
    readText: (path) =>
      readFile(path, "utf8").then(
        (t) => t,
        () => undefined,
      ),
    readBytes: async (path) => {
      try {
        const bytes = new Uint8Array(await readFile(path));
        reads.push(path);
        return bytes;
      } catch {
        return undefined;
      }
    },
  };
  return { root, files: previewFiles, reads, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** Unpacks the e2e fixture tarballs (npm pack of react 18, react-dom 18, scheduler) into `<root>/node_modules`. */
export async function installReact(root: string): Promise<void> {
  const fixtures = new URL("../../../e2e/fixtures/preview/", import.meta.url).pathname;
  for (const [name, tarball] of [
    ["react", "react-18.3.1.tgz"],
    ["react-dom", "react-dom-18.3.1.tgz"],
    ["scheduler", "scheduler-0.23.2.tgz"],
  ] as const) {
    const folder = join(root, "node_modules", name);
    await mkdir(folder, { recursive: true });
    execFileSync("tar", ["xzf", join(fixtures, tarball), "-C", folder, "--strip-components=1"]);
  }
}
