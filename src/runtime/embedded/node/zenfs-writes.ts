/**
 * Tells which paths of a ZenFS file system were written, whoever wrote them: every change ZenFS makes
 * (a file's bytes, its creation, mode or times, a folder made or removed, a rename, a link) reaches the
 * file system through one of the methods below, so wrapping them on the instance sees every writer that
 * uses it (the file host, or code that opened ZenFS on the same file system directly). Used where the files
 * live, to keep the program snapshot cache honest, and inside a sandbox, to find what a program changed
 * without walking every file.
 */
import type { FileSystem } from "@zenfs/core";

/** What was written: a path, and whether everything beneath it may have changed too (a rename). */
type WriteListener = (path: string, subtree: boolean) => void;

/** The methods that change something, with the arguments that name the paths they change. */
const WRITES: ReadonlyArray<{ names: readonly string[]; paths: number; subtree: boolean }> = [
  { names: ["rename", "renameSync"], paths: 2, subtree: true },
  { names: ["link", "linkSync"], paths: 2, subtree: false },
  {
    names: [
      "touch",
      "touchSync",
      "createFile",
      "createFileSync",
      "unlink",
      "unlinkSync",
      "rmdir",
      "rmdirSync",
      "mkdir",
      "mkdirSync",
      "write",
      "writeSync",
      "streamWrite",
    ],
    paths: 1,
    subtree: false,
  },
];

/**
 * Calls `listener` after each write to `fs` (and, for an asynchronous one, once it has settled, so a reader
 * told of it sees it done). Returns the function that stops it. A write that failed is reported too: it may
 * have changed part of what it aimed at.
 */
export function watchWrites(fs: FileSystem, listener: WriteListener): () => void {
  const target = fs as unknown as Record<string, unknown>;
  const own = new Map<string, PropertyDescriptor | undefined>();
  for (const { names, paths, subtree } of WRITES) {
    for (const name of names) {
      const original = target[name];
      if (typeof original !== "function") continue;
      own.set(name, Object.getOwnPropertyDescriptor(target, name));
      const tell = (args: unknown[]) => {
        for (let i = 0; i < paths; i++) if (typeof args[i] === "string") listener(args[i] as string, subtree);
      };
      target[name] = function (this: unknown, ...args: unknown[]) {
        let result: unknown;
        try {
          result = (original as (...a: unknown[]) => unknown).apply(this, args);
        } catch (error) {
          tell(args);
          throw error;
        }
        if (result instanceof Promise) {
          return result.finally(() => tell(args));
        }
        tell(args);
        return result;
      };
    }
  }
  return () => {
    for (const [name, descriptor] of own) {
      if (descriptor) Object.defineProperty(target, name, descriptor);
      else delete target[name];
    }
  };
}
