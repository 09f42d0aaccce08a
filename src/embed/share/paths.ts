import { MAX_NAME_CHARS, MAX_PATH_CHARS } from "./limits.js";

/**
 * C0 and C1 controls (NUL ends a name in C), and the bidirectional marks and overrides that make
 * "invoice\u202Etxt.exe" read as "invoiceexe.txt" in a tree or a prompt.
 */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Why `path` cannot be a file of a share, or undefined when it can. A shared path is relative, uses `/`,
 * and names a file strictly inside the workspace: no `..`, no `.`, no empty names, no absolute or drive
 * paths, no backslashes (a Windows separator a later tool could honour), no control characters.
 */
export function sharePathProblem(path: string): string | undefined {
  if (path.length === 0) return "the path is empty";
  if (path.length > MAX_PATH_CHARS) return `the path is longer than ${MAX_PATH_CHARS} characters`;
  if (path.includes("\\")) return "it contains a backslash (paths use /)";
  if (path.startsWith("/") || /^[a-zA-Z]:/.test(path)) return "it is absolute (paths are relative to the workspace)";
  if (UNSAFE_CHARACTERS.test(path)) return "it contains a control character (or one that reverses how the name reads)";
  for (const name of path.split("/")) {
    if (name === "") return "it has an empty name (a doubled or trailing /)";
    if (name === "..") return "it climbs out of the workspace (..)";
    if (name === ".") return "it has a . name";
    if (name.length > MAX_NAME_CHARS) return `a name in it is longer than ${MAX_NAME_CHARS} characters`;
  }
  return undefined;
}

/** Every path given, checked, and no path that is also a folder of another (a file cannot hold files). */
export function sharePathsProblem(paths: readonly string[]): string | undefined {
  const files = new Set<string>();
  for (const path of paths) {
    const problem = sharePathProblem(path);
    if (problem) return `"${printable(path)}": ${problem}`;
    if (files.has(path)) return `"${printable(path)}" is listed twice`;
    files.add(path);
  }
  for (const path of paths) {
    for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) {
      const folder = path.slice(0, at);
      if (files.has(folder)) return `"${printable(folder)}" is both a file and the folder of "${printable(path)}"`;
    }
  }
  return undefined;
}

/** A path as it may be shown in a message: control characters escaped, long ones cut. */
export function printable(path: string): string {
  const shown = path.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return shown.length > 120 ? `${shown.slice(0, 117)}...` : shown;
}
