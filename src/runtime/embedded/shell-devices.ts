/**
 * Files the shell sees that are not workspace files, none of them ever stored:
 * - the two paths of statement-stream.ts, which exist, are writable, and pass what is written to them to
 *   `emit` as text;
 * - `/dev/null`, which swallows writes and reads as empty (`2>/dev/null` is everywhere in the commands
 *   models write), listed in a `/dev` directory;
 * - `/usr/bin/<name>` and `/bin/<name>` for each command the shell has, so `which` (which looks for files
 *   on PATH) finds what `command -v` reports. just-bash's own in-memory file system writes such stubs at
 *   start-up; ours must not write them into the workspace's storage.
 */
import type { IFileSystem } from "just-bash/browser";
import type { OutputStream } from "../types.js";
import { STREAM_DEVICES } from "./statement-stream.js";

type Content = Parameters<IFileSystem["appendFile"]>[1];
type WriteOptions = Parameters<IFileSystem["appendFile"]>[2];
type FsStat = Awaited<ReturnType<IFileSystem["stat"]>>;
type DirEntry = { name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean };

const DEV_NULL = "/dev/null";
const COMMAND_DIRS = ["/usr/bin", "/bin"];

const streamOf = (path: string): OutputStream | undefined =>
  path === STREAM_DEVICES.stdout ? "stdout" : path === STREAM_DEVICES.stderr ? "stderr" : undefined;

function encodingOf(options: WriteOptions): string | undefined {
  return typeof options === "string" ? options : (options?.encoding ?? undefined);
}

function splitPath(path: string): [dir: string, name: string] {
  const at = path.lastIndexOf("/");
  return [at <= 0 ? "/" : path.slice(0, at), path.slice(at + 1)];
}

/**
 * Every method of `fs` (own or inherited) bound to it, as own properties of a plain object. just-bash hands
 * commands a copy of their context in which a plain object's own properties are copied one by one: a Proxy
 * over a plain object would be read past its traps there (that is how `cat /dev/null` once reached the
 * workspace and failed), so the devices are own properties too.
 */
function methodsOf(fs: IFileSystem): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  for (let level: object | null = fs; level && level !== Object.prototype; level = Object.getPrototypeOf(level)) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name === "constructor" || name in methods) continue;
      const value: unknown = Reflect.get(fs, name);
      if (typeof value === "function") methods[name] = value.bind(fs);
    }
  }
  return methods;
}

export function withShellDevices(
  fs: IFileSystem,
  emit: (stream: OutputStream, text: string) => void,
  commandNames: readonly string[] = [],
): IFileSystem {
  // just-bash hands over bytes ("binary" strings, one char per byte) as well as text; a multi-byte character
  // may be split between two writes, so each stream keeps its own decoder.
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  const write = (stream: OutputStream, content: Content, options: WriteOptions) => {
    const decoder = decoders[stream];
    const encoding = encodingOf(options);
    let text: string;
    if (typeof content !== "string") text = decoder.decode(content, { stream: true });
    else if (encoding === "binary" || encoding === "latin1") {
      text = decoder.decode(
        Uint8Array.from(content, (c) => c.charCodeAt(0) & 0xff),
        { stream: true },
      );
    } else text = decoder.decode() + content;
    if (text.length > 0) emit(stream, text);
  };

  const commands = [...new Set(commandNames)].sort();
  const commandSet = new Set(commands);
  /** What reading a command's file gives: a line saying what it is, as just-bash's own stubs do. */
  const commandText = (name: string) => `#!/bin/bash\n# ${name}: a command built into this shell\n`;
  const commandOf = (path: string): string | undefined => {
    const [dir, name] = splitPath(path);
    return COMMAND_DIRS.includes(dir) && commandSet.has(name) ? name : undefined;
  };
  /** Directories that exist for the shell alone, with what they hold. */
  const virtualDirs = new Map<string, readonly string[]>([["/dev", ["null"]]]);
  if (commands.length > 0) {
    virtualDirs.set("/usr", ["bin"]);
    for (const dir of COMMAND_DIRS) virtualDirs.set(dir, commands);
  }

  const isDevice = (path: string) => path === DEV_NULL || streamOf(path) !== undefined;
  const statOf = (path: string): FsStat | undefined => {
    const mtime = new Date();
    if (isDevice(path)) return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o666, size: 0, mtime };
    const command = commandOf(path);
    if (command !== undefined) {
      return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o755, size: commandText(command).length, mtime };
    }
    if (virtualDirs.has(path)) return { isFile: false, isDirectory: true, isSymbolicLink: false, mode: 0o755, size: 0, mtime };
    return undefined;
  };
  /** A virtual directory's entries, with whatever the workspace's file system holds at that path too. */
  const entriesOf = async (path: string, names: readonly string[]): Promise<DirEntry[]> => {
    const stored = fs.readdirWithFileTypes ? await fs.readdirWithFileTypes(path).catch(() => []) : [];
    const byName = new Map<string, DirEntry>(stored.map((entry) => [entry.name, entry]));
    for (const name of names) {
      const stat = statOf(path === "/" ? `/${name}` : `${path}/${name}`);
      if (!byName.has(name) && stat) {
        byName.set(name, { name, isFile: stat.isFile, isDirectory: stat.isDirectory, isSymbolicLink: false });
      }
    }
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };

  const devices: Partial<IFileSystem> = {
    appendFile: async (path, content, options) => {
      if (path === DEV_NULL) return;
      const stream = streamOf(path);
      return stream ? write(stream, content, options) : fs.appendFile(path, content, options);
    },
    writeFile: async (path, content, options) => {
      if (path === DEV_NULL) return;
      const stream = streamOf(path);
      return stream ? write(stream, content, options) : fs.writeFile(path, content, options);
    },
    readFile: (path, options) => {
      if (path === DEV_NULL) return Promise.resolve("");
      const command = commandOf(path);
      return command !== undefined ? Promise.resolve(commandText(command)) : fs.readFile(path, options);
    },
    readFileBuffer: (path) => {
      if (path === DEV_NULL) return Promise.resolve(new Uint8Array(0));
      const command = commandOf(path);
      return command !== undefined ? Promise.resolve(new TextEncoder().encode(commandText(command))) : fs.readFileBuffer(path);
    },
    exists: (path) => (statOf(path) ? Promise.resolve(true) : fs.exists(path)),
    stat: (path) => {
      const stat = statOf(path);
      return stat ? Promise.resolve(stat) : fs.stat(path);
    },
    lstat: (path) => {
      const stat = statOf(path);
      return stat ? Promise.resolve(stat) : fs.lstat(path);
    },
    readdir: async (path) => {
      const names = virtualDirs.get(path);
      return names ? (await entriesOf(path, names)).map((entry) => entry.name) : fs.readdir(path);
    },
  };
  if (fs.readFileBytes) {
    const readBytes = fs.readFileBytes.bind(fs);
    // Commands that read bytes ask for a byte string (one char per byte).
    devices.readFileBytes = (path) => {
      if (path === DEV_NULL) return Promise.resolve("" as never);
      const command = commandOf(path);
      return command !== undefined ? Promise.resolve(commandText(command) as never) : readBytes(path);
    };
  }
  if (fs.readdirWithFileTypes) {
    const readEntries = fs.readdirWithFileTypes.bind(fs);
    devices.readdirWithFileTypes = (path) => {
      const names = virtualDirs.get(path);
      return names ? entriesOf(path, names) : readEntries(path);
    };
  }
  return { ...methodsOf(fs), ...devices } as IFileSystem;
}
