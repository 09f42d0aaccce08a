/**
 * Which files `node --test` runs: the paths given (files, folders, or globs), or Node's default patterns
 * under the working directory, node_modules left out. Names are relative to the working directory.
 */
import { relative, resolve } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";

const EXTENSIONS = "(?:[cm]?js|[cm]?ts)";
/** Node's defaults: *.test.*, *-test.*, *_test.*, test-*.*, test.*, and anything in a test folder. */
const DEFAULT_PATTERN = new RegExp(
  `(?:^|/)(?:[^/]*[.\\-_]test\\.${EXTENSIONS}|test-[^/]*\\.${EXTENSIONS}|test\\.${EXTENSIONS}|test/(?:.*/)?[^/]*\\.${EXTENSIONS})$`,
);

function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*" && glob[i + 1] === "*") {
      source += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

async function walk(fs: WorkspaceFs, dir: string, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = `${dir === "/" ? "" : dir}/${entry.name}`;
    if (entry.type === "directory") await walk(fs, path, out);
    else if (entry.type === "file") out.push(path);
  }
}

export async function discoverTests(fs: WorkspaceFs, cwd: string, paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const relativeName = (path: string) => relative(cwd, path) || path;
  if (paths.length === 0) {
    const all: string[] = [];
    await walk(fs, cwd, all);
    return all.filter((path) => DEFAULT_PATTERN.test(relativeName(path))).map(relativeName);
  }
  for (const path of paths) {
    if (/[*?]/.test(path)) {
      const all: string[] = [];
      await walk(fs, cwd, all);
      const pattern = globToRegExp(path.replace(/^\.\//, ""));
      found.push(...all.map(relativeName).filter((name) => pattern.test(name)));
      continue;
    }
    const absolute = resolve(cwd, path);
    const stat = await fs.stat(absolute).catch(() => undefined);
    if (!stat) continue;
    if (stat.type === "directory") {
      const all: string[] = [];
      await walk(fs, absolute, all);
      found.push(...all.filter((file) => DEFAULT_PATTERN.test(relative(absolute, file))).map(relativeName));
    } else found.push(path);
  }
  return [...new Set(found)];
}
