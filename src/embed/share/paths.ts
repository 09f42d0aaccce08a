import { MAX_NAME_CHARS, MAX_PATH_CHARS, MAX_PATH_DEPTH, MAX_SHARE_FOLDERS } from "./limits.js";
import { bareRepositoryIn, foldedName, nameProblem } from "../../workspace/name-rules.js";

/**
 * Why `path` cannot be a file of a share, or undefined when it can. A shared path is relative, uses `/`,
 * and names a file strictly inside the workspace: no `..`, no `.`, no empty names, no absolute or drive
 * paths, no backslashes (a Windows separator a later tool could honour), no more than MAX_PATH_DEPTH
 * names, and no name that name-rules.ts refuses (version-control folders, invisible characters, names
 * Windows cannot hold).
 */
function sharePathProblem(path: string): string | undefined {
  if (path.length === 0) return "the path is empty";
  if (path.length > MAX_PATH_CHARS) return `the path is longer than ${MAX_PATH_CHARS} characters`;
  if (path.includes("\\")) return "it contains a backslash (paths use /)";
  if (path.startsWith("/") || /^[a-zA-Z]:/.test(path)) return "it is absolute (paths are relative to the workspace)";
  const names = path.split("/");
  if (names.length > MAX_PATH_DEPTH) return `it is ${names.length} names deep, more than the ${MAX_PATH_DEPTH} a share may nest`;
  for (const name of names) {
    if (name === "") return "it has an empty name (a doubled or trailing /)";
    if (name === "..") return "it climbs out of the workspace (..)";
    if (name === ".") return "it has a . name";
    if (name.length > MAX_NAME_CHARS) return `a name in it is longer than ${MAX_NAME_CHARS} characters`;
    const problem = nameProblem(name);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Every path given, checked; no path that is also a folder of another (a file cannot hold files); no two
 * paths that a case- or normalization-insensitive disk takes for one (`A.txt` and `a.txt`, `é` composed
 * and decomposed: one would overwrite the other there); no more than MAX_SHARE_FOLDERS distinct folders;
 * no folder git would open as a bare repository. Linear in the paths' total length.
 */
export function sharePathsProblem(paths: readonly string[]): string | undefined {
  const files = new Set<string>();
  // Folded path -> the path as given, for files and folders alike: a file may not fold onto a folder either.
  const folded = new Map<string, string>();
  for (const path of paths) {
    const problem = sharePathProblem(path);
    if (problem) return `"${printable(path)}": ${problem}`;
    if (files.has(path)) return `"${printable(path)}" is listed twice`;
    files.add(path);
    const key = path.split("/").map(foldedName).join("/");
    const twin = folded.get(key);
    if (twin !== undefined)
      return `"${printable(path)}" and "${printable(twin)}" differ only in case or Unicode form: on macOS and Windows they are one file`;
    folded.set(key, path);
  }
  const folders = new Map<string, string>();
  for (const path of paths) {
    const names = path.split("/");
    let folder = "";
    let key = "";
    for (const name of names.slice(0, -1)) {
      folder = folder === "" ? name : `${folder}/${name}`;
      key = key === "" ? foldedName(name) : `${key}/${foldedName(name)}`;
      if (files.has(folder)) return `"${printable(folder)}" is both a file and the folder of "${printable(path)}"`;
      const file = folded.get(key);
      if (file !== undefined)
        return `"${printable(file)}" and the folder "${printable(folder)}" differ only in case or Unicode form: on macOS and Windows they are one`;
      const known = folders.get(key);
      if (known === undefined) {
        folders.set(key, folder);
        if (folders.size > MAX_SHARE_FOLDERS) return `it makes more than ${MAX_SHARE_FOLDERS} folders, the most a share may make`;
      } else if (known !== folder)
        return `the folders "${printable(folder)}" and "${printable(known)}" differ only in case or Unicode form: on macOS and Windows they are one`;
    }
  }
  const bare = bareRepositoryIn(paths);
  if (bare !== undefined)
    return `"${printable(bare)}" holds HEAD, objects/ and refs/: git would open it as a repository and run what its config says`;
  return undefined;
}

/**
 * A path (or any untrusted text) as it may be shown in a message or on a terminal: controls, format
 * characters (bidirectional overrides, zero-width ones) and separators written as escapes, so an escape
 * sequence from a link shows as text instead of acting, and long text cut.
 */
export function printable(path: string): string {
  const shown = printableText(path);
  return shown.length > 120 ? `${shown.slice(0, 117)}...` : shown;
}

/** As printable, whole (for a message of ours that quotes input, which must not be cut). */
export function printableText(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (c) => {
    const code = c.codePointAt(0)!;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}
