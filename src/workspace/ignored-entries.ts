/**
 * Which rows of the file tree ripgrep would leave out by its ignore files (`.rgignore`, `.ignore`, and inside
 * a git repository `.gitignore` and `.git/info/exclude`), judged by the search library's own rules so the
 * tree and Find in files never disagree; everything under an ignored folder is ignored too, as rg never
 * walks into one. The tree dims such rows; it still lists them (it reads a folder only when opened).
 */
import { join } from "pathe";
import { parseIgnoreFile, type IgnoreRules } from "../search/ignore.js";
import { dirRules, matchIgnoreFiles, type DirRules } from "../search/ignore-stack.js";
import type { DirEntry, Runtime } from "../runtime/types.js";

type Files = Pick<Runtime["fs"], "readFile" | "stat">;

const decoder = new TextDecoder();

async function rulesFile(files: Files, path: string): Promise<IgnoreRules | undefined> {
  try {
    const { rules } = parseIgnoreFile(decoder.decode(await files.readFile(path)));
    return rules.isEmpty ? undefined : rules;
  } catch {
    return undefined;
  }
}

async function rulesOf(files: Files, dir: string, prefix: string, parent: DirRules | undefined): Promise<DirRules> {
  const git = await files.stat(join(dir, ".git")).then(
    (stat) => stat.type,
    () => undefined,
  );
  const [rgignore, ignore, gitignore, exclude] = await Promise.all([
    rulesFile(files, join(dir, ".rgignore")),
    rulesFile(files, join(dir, ".ignore")),
    rulesFile(files, join(dir, ".gitignore")),
    git === "directory" ? rulesFile(files, join(dir, ".git/info/exclude")) : Promise.resolve(undefined),
  ]);
  return dirRules(parent, { prefix, absoluteParent: false, hasGit: git !== undefined, rgignore, ignore, gitignore, exclude });
}

/** The names among `entries` (of `folder`, inside `root`) that rg, searching `root`, would not look at. */
export async function ignoredNames(files: Files, root: string, folder: string, entries: readonly DirEntry[]): Promise<Set<string>> {
  const relative = folder === root ? "" : folder.startsWith(`${root}/`) ? folder.slice(root.length + 1) : undefined;
  if (relative === undefined) return new Set();
  const parts = relative === "" ? [] : relative.split("/");
  let rules = await rulesOf(files, root, "", undefined);
  for (let depth = 0; depth < parts.length; depth++) {
    const walked = parts.slice(0, depth + 1).join("/");
    // A folder rg would not enter: all it holds is out of the search too.
    if (matchIgnoreFiles(rules, walked, true, root) === "ignore") return new Set(entries.map((entry) => entry.name));
    rules = await rulesOf(files, join(root, walked), walked, rules);
  }
  const ignored = new Set<string>();
  for (const entry of entries) {
    const walked = relative === "" ? entry.name : `${relative}/${entry.name}`;
    if (matchIgnoreFiles(rules, walked, entry.type === "directory", root) === "ignore") ignored.add(entry.name);
  }
  return ignored;
}
