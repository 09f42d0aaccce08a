import type { IFileSystem } from "just-bash/browser";
import { join, resolve as resolvePath } from "pathe";
import { isRuntimeError } from "../errors.js";
import type { ModeStat, WorkspaceFs } from "./workspace-fs.js";

type FsStat = Awaited<ReturnType<IFileSystem["stat"]>>;
type Encoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";
type EncodingOption = Encoding | { encoding?: Encoding | null } | null | undefined;

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

function encodingOf(option: EncodingOption): Encoding {
  if (typeof option === "string") return option;
  return option?.encoding ?? "utf8";
}

function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return text;
}

function decode(bytes: Uint8Array, encoding: Encoding): string {
  switch (encoding) {
    case "binary":
    case "latin1":
      return latin1(bytes);
    case "ascii":
      return latin1(bytes.map((b) => b & 0x7f));
    case "base64":
      return btoa(latin1(bytes));
    case "hex":
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    default:
      return utf8Decoder.decode(bytes);
  }
}

function encode(content: string | Uint8Array, encoding: Encoding): Uint8Array {
  if (typeof content !== "string") return content;
  switch (encoding) {
    case "binary":
    case "latin1":
    case "ascii":
      return Uint8Array.from(content, (c) => c.charCodeAt(0) & 0xff);
    case "base64":
      return Uint8Array.from(atob(content), (c) => c.charCodeAt(0));
    case "hex":
      return Uint8Array.from(content.match(/../g) ?? [], (h) => parseInt(h, 16));
    default:
      return utf8Encoder.encode(content);
  }
}

function toFsStat(stat: ModeStat): FsStat {
  return {
    isFile: stat.type === "file",
    isDirectory: stat.type === "directory",
    isSymbolicLink: stat.type === "symlink",
    mode: stat.mode,
    size: stat.size,
    mtime: new Date(stat.mtimeMs),
  };
}

/**
 * just-bash's IFileSystem over the workspace's files, so the shell, the tools and the file tree all
 * see one file system.
 */
export function createBashFs(fs: WorkspaceFs): IFileSystem {
  async function copy(src: string, dest: string, recursive: boolean): Promise<void> {
    const stat = await fs.lstat(src);
    if (stat.type === "directory") {
      if (!recursive) throw new Error(`EISDIR: is a directory, cp '${src}'`);
      await fs.mkdir(dest, { recursive: true });
      for (const entry of await fs.readdir(src)) await copy(join(src, entry.name), join(dest, entry.name), true);
    } else if (stat.type === "symlink") {
      await fs.symlink(await fs.readlink(src), dest);
    } else {
      await fs.writeFile(dest, await fs.readFile(src));
      await fs.chmod(dest, stat.mode);
    }
  }

  return {
    readFile: async (path, options) => decode(await fs.readFile(path), encodingOf(options as EncodingOption)),
    readFileBuffer: (path) => fs.readFile(path),
    readFileBytes: async (path) => latin1(await fs.readFile(path)) as never,
    writeFile: (path, content, options) => fs.writeFile(path, encode(content, encodingOf(options as EncodingOption))),
    appendFile: (path, content, options) => fs.appendFile(path, encode(content, encodingOf(options as EncodingOption))),
    exists: (path) =>
      fs.stat(path).then(
        () => true,
        (error: unknown) => (isRuntimeError(error) && ["ENOENT", "ENOTDIR", "ELOOP"].includes(error.code) ? false : Promise.reject(error)),
      ),
    stat: async (path) => toFsStat(await fs.stat(path)),
    lstat: async (path) => toFsStat(await fs.lstat(path)),
    mkdir: (path, options) => fs.mkdir(path, { recursive: options?.recursive ?? false }),
    readdir: async (path) => (await fs.readdir(path)).map((entry) => entry.name).sort(),
    readdirWithFileTypes: async (path) =>
      (await fs.readdir(path))
        .map((entry) => ({
          name: entry.name,
          isFile: entry.type === "file",
          isDirectory: entry.type === "directory",
          isSymbolicLink: entry.type === "symlink",
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    rm: (path, options) => fs.rm(path, { recursive: options?.recursive ?? false, force: options?.force ?? false }),
    cp: (src, dest, options) => copy(src, dest, options?.recursive ?? false),
    mv: (src, dest) => fs.rename(src, dest),
    resolvePath: (base, path) => resolvePath(base, path),
    // Only used by `ls` for glob fallbacks; a full listing would mean walking the whole workspace.
    getAllPaths: () => [],
    chmod: (path, mode) => fs.chmod(path, mode),
    symlink: (target, linkPath) => fs.symlink(target, linkPath),
    link: (existing, path) => fs.link(existing, path),
    readlink: (path) => fs.readlink(path),
    realpath: (path) => fs.realpath(path),
    utimes: (path, atime, mtime) => fs.utimes(path, atime.getTime(), mtime.getTime()),
  };
}
