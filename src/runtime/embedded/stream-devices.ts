/**
 * The two paths of statement-stream.ts, as seen by the shell: they exist, are writable files, and what is
 * written to them goes to `emit` as text instead of to the workspace.
 */
import type { IFileSystem } from "just-bash/browser";
import type { OutputStream } from "../types.js";
import { STREAM_DEVICES } from "./statement-stream.js";

type Content = Parameters<IFileSystem["appendFile"]>[1];
type WriteOptions = Parameters<IFileSystem["appendFile"]>[2];

const streamOf = (path: string): OutputStream | undefined =>
  path === STREAM_DEVICES.stdout ? "stdout" : path === STREAM_DEVICES.stderr ? "stderr" : undefined;

function encodingOf(options: WriteOptions): string | undefined {
  return typeof options === "string" ? options : (options?.encoding ?? undefined);
}

export function withStreamDevices(fs: IFileSystem, emit: (stream: OutputStream, text: string) => void): IFileSystem {
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
  const devices: Partial<IFileSystem> = {
    appendFile: async (path, content, options) => {
      const stream = streamOf(path);
      return stream ? write(stream, content, options) : fs.appendFile(path, content, options);
    },
    writeFile: async (path, content, options) => {
      const stream = streamOf(path);
      return stream ? write(stream, content, options) : fs.writeFile(path, content, options);
    },
    exists: (path) => (streamOf(path) ? Promise.resolve(true) : fs.exists(path)),
    stat: (path) => (streamOf(path) ? deviceStat() : fs.stat(path)),
    lstat: (path) => (streamOf(path) ? deviceStat() : fs.lstat(path)),
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
