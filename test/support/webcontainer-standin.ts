/**
 * An in-memory stand-in for the part of @webcontainer/api the project uses (src/runtime/webcontainer/api.ts),
 * since the real one cannot boot without StackBlitz's servers. It keeps the real API's awkward parts,
 * because those are what the adapter has to get right:
 * - the fs API is scoped to the workdir and has no stat, lstat, symlink or readlink;
 * - errors are plain Errors whose message starts with the code (no `code` property);
 * - writeFile and rename need the parent folder to exist; mkdir without recursive fails on an existing
 *   folder or a missing parent;
 * - a process's output merges stdout and stderr, is PTY-formatted (CRLF, escape sequences) and comes
 *   in chunks that can split an escape sequence or a CRLF;
 * - `jsh -c` is the shell (run here by just-bash, over the same files).
 * Unlike the real one it prints a command's output when the command ends, not as it goes.
 */
import { Bash, InMemoryFs, type IFileSystem } from "just-bash/browser";
import { dirname, resolve } from "pathe";
import type { WcApi, WcDirEnt, WcFileSystem, WcFileSystemTree, WcInstance, WcProcess } from "../../src/runtime/webcontainer/api.js";

const mutating = new Set(["writeFile", "appendFile", "mkdir", "rm", "cp", "mv", "chmod", "symlink", "link", "utimes"]);

function fail(code: string, text: string, syscall: string, path: string): never {
  throw new Error(`${code}: ${text}, ${syscall} '${path}'`);
}

export interface StandinOptions {
  /** Never settle boot(), as the real one does offline. */
  hang?: boolean;
  /** Size of the pieces a process's output is cut into (small, to split escapes and CRLFs). */
  chunkSize?: number;
}

export function createWebContainerStandin(options: StandinOptions = {}): WcApi & { booted: WcInstance[] } {
  const booted: WcInstance[] = [];
  return {
    booted,
    boot(bootOptions) {
      if (options.hang) return new Promise<never>(() => {});
      if (booted.some((instance) => !(instance as { tornDown?: boolean }).tornDown)) {
        return Promise.reject(new Error("Only a single WebContainer instance can be booted"));
      }
      const instance = createInstance(`/home/${bootOptions?.workdirName ?? "projects"}`, options.chunkSize ?? 7);
      booted.push(instance);
      return Promise.resolve(instance);
    },
  };
}

function createInstance(workdir: string, chunkSize: number): WcInstance & { tornDown: boolean } {
  const store = new InMemoryFs();
  void store.mkdir(workdir, { recursive: true });
  const watchers = new Set<(event: "rename" | "change", filename: string) => void>();
  const notify = (path: string) => {
    if (!path.startsWith(workdir + "/")) return;
    for (const watcher of watchers) watcher("change", path.slice(workdir.length + 1));
  };
  // Every change, whether through the fs API or by a command, is seen by watchers, as in the real one.
  const watched = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      if (!mutating.has(String(key))) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        for (const arg of args.slice(0, key === "symlink" || key === "link" ? 2 : 1)) {
          if (typeof arg === "string") notify(resolve(workdir, arg));
        }
        if (key === "cp" || key === "mv") notify(resolve(workdir, String(args[1])));
        return result;
      };
    },
  }) as IFileSystem;

  const abs = (path: string) => resolve(workdir, path);
  const isDir = (path: string) =>
    store.stat(path).then(
      (s) => s.isDirectory,
      () => false,
    );
  const exists = (path: string) => store.exists(path);

  const fs: WcFileSystem = {
    async readFile(path) {
      const p = abs(path);
      if (!(await exists(p))) fail("ENOENT", "no such file or directory", "open", p);
      if (await isDir(p)) fail("EISDIR", "illegal operation on a directory", "read", p);
      return store.readFileBuffer(p);
    },
    async writeFile(path, data) {
      const p = abs(path);
      if (!(await isDir(dirname(p)))) fail("ENOENT", "no such file or directory", "open", p);
      await watched.writeFile(p, data);
    },
    async readdir(path, _options) {
      const p = abs(path);
      if (!(await exists(p))) fail("ENOENT", "no such file or directory", "scandir", p);
      if (!(await isDir(p))) fail("ENOTDIR", "not a directory", "scandir", p);
      const entries = await store.readdirWithFileTypes!(p);
      return entries.map((e): WcDirEnt => ({ name: e.name, isFile: () => e.isFile, isDirectory: () => e.isDirectory }));
    },
    async mkdir(path: string, options?: { recursive?: boolean }) {
      const p = abs(path);
      if (options?.recursive) {
        await watched.mkdir(p, { recursive: true });
        return p as never;
      }
      if (await exists(p)) fail("EEXIST", "file already exists", "mkdir", p);
      if (!(await isDir(dirname(p)))) fail("ENOENT", "no such file or directory", "mkdir", p);
      await watched.mkdir(p);
      return undefined as never;
    },
    async rm(path, options) {
      const p = abs(path);
      if (!(await exists(p))) {
        if (options?.force) return;
        fail("ENOENT", "no such file or directory", "rm", p);
      }
      if ((await isDir(p)) && !options?.recursive) fail("EISDIR", "is a directory", "rm", p);
      await watched.rm(p, { recursive: options?.recursive ?? false, force: options?.force ?? false });
    },
    async rename(oldPath, newPath) {
      const a = abs(oldPath);
      const b = abs(newPath);
      if (!(await exists(a))) fail("ENOENT", "no such file or directory", "rename", a);
      if (!(await isDir(dirname(b)))) fail("ENOENT", "no such file or directory", "rename", b);
      await watched.mv(a, b);
    },
    watch(_path, _options, listener) {
      watchers.add(listener);
      return { close: () => watchers.delete(listener) };
    },
  };

  async function mountTree(tree: WcFileSystemTree, at: string): Promise<void> {
    await store.mkdir(at, { recursive: true });
    for (const [name, node] of Object.entries(tree)) {
      const path = `${at}/${name}`;
      if ("directory" in node) await mountTree(node.directory, path);
      else if ("symlink" in node.file) await store.symlink(node.file.symlink, path);
      else await store.writeFile(path, node.file.contents);
    }
  }

  function ptyChunks(text: string): string[] {
    const pty = `\x1b[?25l${text.replace(/\r?\n/g, "\r\n")}\x1b]0;jsh\x07\x1b[?25h`;
    const chunks: string[] = [];
    for (let i = 0; i < pty.length; i += chunkSize) chunks.push(pty.slice(i, i + chunkSize));
    return chunks;
  }

  const instance: WcInstance & { tornDown: boolean } = {
    workdir,
    fs,
    tornDown: false,
    mount: (tree) => mountTree(tree, workdir),
    async spawn(command, args, options) {
      const controller = new AbortController();
      let run: Promise<{ exitCode: number; text: string }>;
      if (command !== "jsh" || args[0] !== "-c" || args.length !== 2) {
        run = Promise.resolve({ exitCode: 127, text: `jsh: command not found: ${command}\n` });
      } else {
        const bash = new Bash({ fs: watched, cwd: workdir, env: { HOME: workdir } });
        const env = Object.fromEntries(Object.entries(options?.env ?? {}).map(([k, v]) => [k, String(v)]));
        run = bash
          .exec(args[1]!, { cwd: resolve(workdir, options?.cwd ?? "."), env, signal: controller.signal })
          .then((result) => ({ exitCode: result.exitCode, text: result.stdout + result.stderr }));
      }
      let finish: (code: number) => void = () => {};
      const exit = new Promise<number>((r) => (finish = r));
      const output = new ReadableStream<string>({
        async start(stream) {
          const result = await run;
          for (const chunk of ptyChunks(result.text)) stream.enqueue(chunk);
          stream.close();
          finish(controller.signal.aborted ? 130 : result.exitCode);
        },
      });
      const process: WcProcess = { exit, output, kill: () => controller.abort() };
      return process;
    },
    teardown() {
      instance.tornDown = true;
      watchers.clear();
    },
  };
  return instance;
}
