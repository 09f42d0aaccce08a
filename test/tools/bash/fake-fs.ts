import type { DeriveFs } from "../../../src/tools/bash/index.js";

/**
 * A tiny in-memory tree for derivation tables: folders, files and symlinks (absolute targets). Paths resolve
 * component by component like the kernel's, so a link in the middle of a path is followed.
 */
export function fakeFs(tree: { dirs: string[]; files?: string[]; links?: Record<string, string> }): DeriveFs {
  const dirs = new Set(["/", ...tree.dirs]);
  const files = new Set(tree.files ?? []);
  const links = tree.links ?? {};
  const enoent = (path: string) => Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: "ENOENT" });

  const resolveReal = (path: string): string => {
    let current = "";
    for (const part of path.split("/").filter(Boolean)) {
      if (part === ".") continue;
      if (part === "..") {
        current = current.slice(0, current.lastIndexOf("/"));
        continue;
      }
      let next = `${current}/${part}`;
      for (let hops = 0; links[next] !== undefined; hops++) {
        if (hops > 20) throw Object.assign(new Error("ELOOP"), { code: "ELOOP" });
        next = links[next]!;
      }
      if (!dirs.has(next) && !files.has(next)) throw enoent(path);
      current = next;
    }
    return current || "/";
  };

  return {
    async realpath(path) {
      return resolveReal(path);
    },
    async stat(path) {
      const real = resolveReal(path);
      return { type: dirs.has(real) ? "directory" : "file", size: 0, mtimeMs: 0 };
    },
    async readdir(path) {
      const real = resolveReal(path);
      if (!dirs.has(real)) throw enoent(path);
      const prefix = real === "/" ? "/" : `${real}/`;
      const names = new Set<string>();
      for (const entry of [...dirs, ...files, ...Object.keys(links)]) {
        if (entry.startsWith(prefix) && entry !== real && !entry.slice(prefix.length).includes("/")) names.add(entry.slice(prefix.length));
      }
      return [...names].map((name) => {
        const full = `${prefix}${name}`;
        return { name, type: links[full] ? "symlink" : dirs.has(full) ? "directory" : "file" };
      });
    },
  };
}
