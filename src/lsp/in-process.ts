/**
 * The project in the calling thread: the CLI and the tests. TypeScript (about 9 MB of JavaScript) is
 * imported on first use, so a command that never touches a script never loads it.
 */
import type { BackendFactory } from "./backend.js";

export const inProcessBackend: BackendFactory = async (root, files) => {
  const [{ TsProject }, { nodeLib }] = await Promise.all([import("./project.js"), import("./node-libs.js")]);
  const project = await TsProject.open(root, { ...files, lib: nodeLib });
  return {
    update: async (path, text) => project.update(path, text),
    refresh: () => project.refresh(),
    diagnostics: (paths) => project.diagnostics(paths),
    query: (query) => project.query(query),
    dispose: () => undefined,
  };
};
