import type { PatchIo } from "../../../src/tools/patch/index.js";

/** An in-memory file tree for the planner: files by absolute path; folders are implied by them or listed. */
export function memoryIo(files: Record<string, string>, options: { root?: string; directories?: string[] } = {}) {
  const root = options.root ?? "/ws";
  const reads: string[] = [];
  const io: PatchIo = {
    root,
    async read(path) {
      reads.push(path);
      return files[path];
    },
    async isDirectory(path) {
      if (options.directories?.includes(path)) return true;
      return Object.keys(files).some((file) => file.startsWith(`${path}/`));
    },
  };
  return { io, reads };
}

/** Joins lines into a patch. */
export const patch = (...lines: string[]) => lines.join("\n");
