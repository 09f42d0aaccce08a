/**
 * What the file tree does to the workspace: new file, new folder, rename, move, delete and files
 * dropped from the desktop. Each goes through the runtime's file operations (the ones the tools use),
 * so the tree, the tools and the terminal see one file system and the same change notices. Names are
 * checked before anything is touched, and nothing is replaced without the caller saying so.
 */
import { basename, dirname, join, normalize } from "pathe";
import { isRuntimeError } from "../runtime/errors.js";
import type { Runtime } from "../runtime/types.js";
import { importFiles, landingPath, type IncomingFile } from "./transfer.js";

/** The target is taken: the caller may ask the user, then repeat with `overwrite`. */
export class NameTaken extends Error {
  constructor(
    readonly path: string,
    readonly kind: "file" | "folder",
  ) {
    super(`a ${kind} named "${basename(path)}" is already in ${dirname(path)}`);
    this.name = "NameTaken";
  }
}

/**
 * One name inside a folder: not empty, not "." or "..", no "/" (that would be a path), no "\\" or NUL
 * (not portable), no leading or trailing space (invisible in the tree).
 */
export function checkName(name: string): string {
  if (name === "") throw new Error("a name is needed: type one");
  if (name.trim() !== name) throw new Error(`"${name}" starts or ends with a space: remove it`);
  if (name === "." || name === "..") throw new Error(`"${name}" names a folder that already exists: pick another name`);
  if (name.includes("/")) throw new Error(`"${name}" contains "/": a name is one level; to move it, use Move`);
  if (name.includes("\\")) throw new Error(`"${name}" contains "\\\\": use another character`);
  if (name.includes("\0")) throw new Error("a name cannot contain a NUL character");
  if (name.length > 255) throw new Error(`a name is at most 255 characters (this one has ${name.length})`);
  return name;
}

/** `path` itself must be inside the workspace root (not the root). */
function inside(runtime: Runtime, path: string): string {
  const clean = normalize(path);
  const root = runtime.root;
  if (!clean.startsWith(`${root}/`)) throw new Error(`${path} is not inside the workspace (${root})`);
  return clean;
}

/** A folder the action puts something in: the root or a folder inside it. */
function folderIn(runtime: Runtime, path: string): string {
  const clean = normalize(path);
  return clean === runtime.root ? clean : inside(runtime, clean);
}

async function kindAt(runtime: Runtime, path: string): Promise<"file" | "folder" | undefined> {
  try {
    const stat = await runtime.fs.lstat(path);
    return stat.type === "directory" ? "folder" : "file";
  } catch (error) {
    if (isRuntimeError(error, "ENOENT")) return undefined;
    throw error;
  }
}

/**
 * A new entry's name, which may go down into folders (`docs/notes.md`): every part is checked as a
 * name, so `..` and empty parts are refused and nothing can land outside `folder`.
 */
function checkNewPath(path: string): string[] {
  if (path === "") return [checkName(path)];
  const parts = path.split("/");
  if (parts.some((part) => part === "")) throw new Error(`"${path}" has an empty part (a leading, trailing or doubled "/"): remove it`);
  return parts.map((part) => {
    if (part === "..") throw new Error(`"${path}" goes up a folder with "..": name a place inside this folder`);
    if (part.includes("/")) throw new Error(`"${path}" is not a path`);
    return checkName(part);
  });
}

/** Makes the folders on the way to `target` (the last part excluded); refuses when one of them is a file. */
async function foldersOnTheWay(runtime: Runtime, base: string, parts: readonly string[]): Promise<void> {
  let at = base;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    const kind = await kindAt(runtime, at);
    if (kind === "file") throw new Error(`${basename(at)} in ${dirname(at)} is a file, not a folder`);
    if (kind === undefined) await runtime.fs.mkdir(at);
  }
}

/** Makes an empty file (with the folders its name goes through); refuses when the name is taken (a new file never replaces one). */
export async function createFile(runtime: Runtime, folder: string, name: string): Promise<string> {
  const base = folderIn(runtime, folder);
  const parts = checkNewPath(name);
  const target = join(base, ...parts);
  const taken = await kindAt(runtime, target);
  if (taken) throw new NameTaken(target, taken);
  await foldersOnTheWay(runtime, base, parts);
  await runtime.fs.writeFileAtomic(target, new Uint8Array(), { expect: "absent" });
  return target;
}

export async function createFolder(runtime: Runtime, folder: string, name: string): Promise<string> {
  const base = folderIn(runtime, folder);
  const parts = checkNewPath(name);
  const target = join(base, ...parts);
  const taken = await kindAt(runtime, target);
  if (taken) throw new NameTaken(target, taken);
  await foldersOnTheWay(runtime, base, parts);
  await runtime.fs.mkdir(target);
  return target;
}

/**
 * Puts `from` at `to`. A file may replace a file when `overwrite` says so; a folder is never replaced
 * (its contents would be lost in one step), and a folder cannot go inside itself.
 */
async function relocate(runtime: Runtime, from: string, to: string, overwrite: boolean): Promise<string> {
  if (from === to) return to;
  const source = await kindAt(runtime, from);
  if (!source) throw new Error(`${from} is not there any more: it was deleted or renamed`);
  if (source === "folder" && to.startsWith(`${from}/`)) throw new Error(`cannot move the folder ${basename(from)} into itself`);
  const taken = await kindAt(runtime, to);
  if (taken) {
    if (taken === "folder" || source === "folder") {
      throw new Error(`a ${taken} named "${basename(to)}" is already in ${dirname(to)}; a folder is never replaced: pick another name`);
    }
    if (!overwrite) throw new NameTaken(to, taken);
  }
  await runtime.fs.rename(from, to);
  return to;
}

export async function renameEntry(runtime: Runtime, path: string, name: string, options: { overwrite?: boolean } = {}): Promise<string> {
  const from = inside(runtime, path);
  return relocate(runtime, from, join(dirname(from), checkName(name)), options.overwrite ?? false);
}

/** Moves a file or folder into `folder`, keeping its name. */
export async function moveEntry(runtime: Runtime, path: string, folder: string, options: { overwrite?: boolean } = {}): Promise<string> {
  const from = inside(runtime, path);
  const into = folderIn(runtime, folder);
  if ((await kindAt(runtime, into)) !== "folder") throw new Error(`${into} is not a folder: move into a folder`);
  return relocate(runtime, from, join(into, basename(from)), options.overwrite ?? false);
}

export async function deleteEntry(runtime: Runtime, path: string): Promise<void> {
  const target = inside(runtime, path);
  await runtime.fs.rm(target, { recursive: true });
}

/**
 * Files dropped from the desktop into `folder`. Every name is checked first (none may climb out), and
 * names already taken are reported together as one NameTaken-like list unless `overwrite`.
 */
export async function dropFiles(
  runtime: Runtime,
  folder: string,
  files: IncomingFile[],
  options: { overwrite?: boolean } = {},
): Promise<{ written: string[]; taken: string[] }> {
  const into = folderIn(runtime, folder);
  const targets = files.map((file) => landingPath(into, file.path));
  const taken: string[] = [];
  for (const target of targets) {
    const kind = await kindAt(runtime, target);
    if (kind === "folder")
      throw new Error(`a folder named "${basename(target)}" is already in ${dirname(target)}; a folder is never replaced by a file`);
    if (kind) taken.push(target);
  }
  if (taken.length > 0 && !options.overwrite) return { written: [], taken };
  return { written: await importFiles(runtime, into, files), taken };
}
