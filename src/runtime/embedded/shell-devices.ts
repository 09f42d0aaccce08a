/**
 * Device files the shell sees that are not workspace files: the two paths of statement-stream.ts, which
 * exist, are writable, and pass what is written to them to `emit` as text; and `/dev/null`, which
 * swallows writes and reads as empty (`2>/dev/null` is everywhere in the commands models write).
 */
import type { IFileSystem } from "just-bash/browser";
import type { OutputStream } from "../types.js";
import { STREAM_DEVICES } from "./statement-stream.js";

type Content = Parameters<IFileSystem["appendFile"]>[1];
type WriteOptions = Parameters<IFileSystem["appendFile"]>[2];

const DEV_NULL = "/dev/null";

const streamOf = (path: string): OutputStream | undefined =>
  path === STREAM_DEVICES.stdout ? "stdout" : path === STREAM_DEVICES.stderr ? "stderr" : undefined;

function encodingOf(options: WriteOptions): string | undefined {
  return typeof options === "string" ? options : (options?.encoding ?? undefined);
}

export function withShellDevices(fs: IFileSystem, emit: (stream: OutputStream, text: string) => void): IFileSystem {
  // just-bash hands over bytes ("binary" strings, one char per byte) as well as text; a multi-byte character
  // may be split between two writes, so each stream keeps its own decoder.
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  const write = (stream: OutputStream, content: Content, options: WriteOptions) => {
    const decoder = decoders[stream];
    const encoding = encodingOf(options);
    let text: string;
    if (typeof content !== "string") text = decoder.decode(content, { stream: true });
    else if (encoding === "binary" || encoding === "latin1") {
      text = decoder.decode(Uint8Array.from(content, (c) => c.charCodeAt(0) & 0xff), { stream: true });
    } else text = decoder.decode() + content;
    if (text.length > 0) emit(stream, text);
  };
  const deviceStat = async () => ({ isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o666, size: 0, mtime: new Date() });
  const isDevice = (path: string) => path === DEV_NULL || streamOf(path) !== undefined;
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
    readFile: (path, options) => (path === DEV_NULL ? Promise.resolve("") : fs.readFile(path, options)),
    readFileBuffer: (path) => (path === DEV_NULL ? Promise.resolve(new Uint8Array(0)) : fs.readFileBuffer(path)),
    // Commands that read bytes ask for a byte string (one char per byte): empty here.
    ...(fs.readFileBytes ? { readFileBytes: (path: string) => (path === DEV_NULL ? Promise.resolve("" as never) : fs.readFileBytes!(path)) } : {}),
    exists: (path) => (isDevice(path) ? Promise.resolve(true) : fs.exists(path)),
    stat: (path) => (isDevice(path) ? deviceStat() : fs.stat(path)),
    lstat: (path) => (isDevice(path) ? deviceStat() : fs.lstat(path)),
  };
  // A proxy rather than a copy: the file system may be a class instance whose methods need their `this`.
  return new Proxy(fs, {
    get(target, name, receiver) {
      if (typeof name === "string" && name in devices) return devices[name as keyof IFileSystem];
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
