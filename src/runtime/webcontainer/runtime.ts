import { dirname, relative, resolve } from "pathe";
import { createLocalSearchService } from "../../search/service.js";
import { RuntimeError, WriteConflict, isWriteConflict, toRuntimeError } from "../errors.js";
import { ExclusiveGate } from "../exclusive-gate.js";
import { fingerprint, sameContent } from "../fingerprint.js";
import { ChangeListeners, OutputCollector, StopControl } from "../output.js";
import type { Capabilities, DirEntry, ExecOptions, ExecResult, Runtime, RuntimeFs, Stat } from "../types.js";
import { PtyTextDecoder } from "./ansi.js";
import type { WcInstance } from "./api.js";

const capabilities: Capabilities = {
  streaming: true,
  realProcesses: true,
  symlinks: false,
  modes: false,
  separateStderr: false,
  shellState: false,
};

const encoder = new TextEncoder();

/**
 * A Runtime over a booted WebContainer. Its file API is scoped to the workdir and has no stat, so
 * types come from the parent folder's listing and modification times from an index this adapter
 * keeps (writes made here, and the container's own watch events for writes made by commands).
 */
export function createWebContainerRuntime(wc: WcInstance): Runtime {
  const root = wc.workdir;
  const changes = new ChangeListeners();
  const mtimes = new Map<string, number>();
  const touch = (rel: string) => mtimes.set(rel, Date.now());

  const watcher = wc.fs.watch(".", { recursive: true }, (_event, filename) => {
    const rel = typeof filename === "string" ? filename : new TextDecoder().decode(filename);
    touch(normalizeRel(rel));
    changes.emit([resolve(root, rel)]);
  });

  function normalizeRel(rel: string): string {
    const clean = rel.replace(/^\.\/?/, "").replace(/\/+$/, "");
    return clean === "" ? "." : clean;
  }

  /** The workdir-relative path the container's fs API takes; paths outside the workdir cannot be reached. */
  function rel(path: string, syscall: string): string {
    const absolute = resolve(root, path);
    const inside = relative(root, absolute);
    if (inside.startsWith("..")) {
      throw new RuntimeError("EPERM", syscall, path, `outside the WebContainer's workdir ${root}: its file API reaches nothing else`);
    }
    return inside === "" ? "." : inside;
  }

  async function guard<T>(syscall: string, path: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isWriteConflict(error)) throw error;
      throw toRuntimeError(error, syscall, path);
    }
  }

  // The container's own processes write without asking anyone; checked writes at least never race each other.
  const gate = new ExclusiveGate();

  async function typeOf(path: string, syscall: string): Promise<"file" | "directory"> {
    const r = rel(path, syscall);
    if (r === ".") return "directory";
    const parent = dirname(r);
    let entries;
    try {
      entries = await wc.fs.readdir(parent, { withFileTypes: true });
    } catch (error) {
      const mapped = toRuntimeError(error, syscall, path);
      throw mapped.code === "ENOTDIR" ? mapped : new RuntimeError(mapped.code === "EIO" ? "EIO" : "ENOENT", syscall, path);
    }
    const name = r.slice(parent === "." ? 0 : parent.length + 1);
    const entry = entries.find((e) => e.name === name);
    if (!entry) throw new RuntimeError("ENOENT", syscall, path);
    return entry.isDirectory() ? "directory" : "file";
  }

  async function stat(path: string, syscall = "stat"): Promise<Stat> {
    const type = await typeOf(path, syscall);
    const r = rel(path, syscall);
    const size = type === "file" ? (await guard("open", path, () => wc.fs.readFile(r))).length : 0;
    if (!mtimes.has(r)) touch(r);
    return { type, size, mtimeMs: mtimes.get(r)! };
  }

  async function assertParentDir(path: string, syscall: string): Promise<void> {
    const type = await typeOf(dirname(resolve(root, path)), syscall).catch((error: unknown) => {
      const mapped = toRuntimeError(error, syscall, path);
      throw new RuntimeError(mapped.code, syscall, path);
    });
    if (type !== "directory") throw new RuntimeError("ENOTDIR", syscall, path);
  }

  const fs: RuntimeFs = {
    readFile: async (path) => {
      if ((await typeOf(path, "open")) === "directory") throw new RuntimeError("EISDIR", "read", path);
      return guard("open", path, () => wc.fs.readFile(rel(path, "open")));
    },
    read: async (path, { position, length }) => {
      const bytes = await fs.readFile(path);
      return bytes.slice(position, position + Math.max(0, length));
    },
    writeFile: (path, data) =>
      guard("open", path, async () => {
        await assertParentDir(path, "open");
        const exists = await typeOf(path, "open").catch(() => undefined);
        if (exists === "directory") throw new RuntimeError("EISDIR", "open", path);
        const r = rel(path, "open");
        await wc.fs.writeFile(r, typeof data === "string" ? encoder.encode(data) : data);
        touch(r);
        changes.emit([path]);
      }),
    // Its file API knows no links (paths are taken as they are), so the checks are the folder and the content.
    writeFileAtomic: (path, data, options = {}) =>
      gate.exclusive(() =>
        guard("open", path, async () => {
          if (options.makeParents) await fs.mkdir(dirname(resolve(root, path)), { recursive: true });
          await assertParentDir(path, "open");
          if (options.parent !== undefined && options.parent !== dirname(resolve(root, path))) throw new WriteConflict(path, "moved");
          const type = await typeOf(path, "open").catch(() => undefined);
          if (type === "directory") throw new RuntimeError("EISDIR", "open", path);
          if (options.expect === "absent" && type) throw new WriteConflict(path, "created");
          if (options.expect !== undefined && options.expect !== "absent") {
            if (!type) throw new WriteConflict(path, "deleted");
            const bytes = await wc.fs.readFile(rel(path, "open"));
            if (!sameContent(fingerprint(bytes), options.expect)) throw new WriteConflict(path, "changed", mtimes.get(rel(path, "open")));
          }
          await fs.writeFile(path, data);
        }),
      ),
    // The container's fs API cannot append: the file is read and written whole (slow for big files).
    appendFile: async (path, data) => {
      const bytes = typeof data === "string" ? encoder.encode(data) : data;
      const before = await fs.readFile(path).catch((error: unknown) => {
        if (toRuntimeError(error, "open", path).code === "ENOENT") return new Uint8Array();
        throw error;
      });
      const joined = new Uint8Array(before.length + bytes.length);
      joined.set(before);
      joined.set(bytes, before.length);
      await fs.writeFile(path, joined);
    },
    stat: (path) => stat(path),
    lstat: (path) => stat(path, "lstat"),
    readdir: (path) =>
      guard("scandir", path, async () => {
        if ((await typeOf(path, "scandir")) !== "directory") throw new RuntimeError("ENOTDIR", "scandir", path);
        const entries = await wc.fs.readdir(rel(path, "scandir"), { withFileTypes: true });
        return entries.map((e): DirEntry => ({ name: e.name, type: e.isDirectory() ? "directory" : "file" }));
      }),
    mkdir: (path, options) =>
      guard("mkdir", path, async () => {
        const r = rel(path, "mkdir");
        if (options?.recursive) {
          const existing = await typeOf(path, "mkdir").catch(() => undefined);
          if (existing === "directory") return;
          if (existing === "file") throw new RuntimeError("EEXIST", "mkdir", path);
          await wc.fs.mkdir(r, { recursive: true });
        } else {
          await wc.fs.mkdir(r);
        }
        touch(r);
        changes.emit([path]);
      }),
    rm: (path, options) =>
      guard("rm", path, async () => {
        const r = rel(path, "rm");
        const type = await typeOf(path, "rm").catch((error: unknown) => {
          if (options?.force) return undefined;
          throw error;
        });
        if (type === undefined) return;
        // As node's fs.rm: a folder goes only with recursive, even an empty one.
        if (type === "directory" && !options?.recursive) throw new RuntimeError("EISDIR", "rm", path);
        await wc.fs.rm(r, { recursive: options?.recursive ?? false, force: options?.force ?? false });
        mtimes.delete(r);
        changes.emit([path]);
      }),
    rename: (from, to) =>
      guard("rename", from, async () => {
        await typeOf(from, "rename");
        await assertParentDir(to, "rename");
        const a = rel(from, "rename");
        const b = rel(to, "rename");
        await wc.fs.rename(a, b);
        mtimes.set(b, mtimes.get(a) ?? Date.now());
        mtimes.delete(a);
        changes.emit([from, to]);
      }),
    realpath: async (path) => {
      await typeOf(path, "realpath");
      return resolve(root, path);
    },
    readlink: async (path) => {
      await typeOf(path, "readlink");
      throw new RuntimeError("EINVAL", "readlink", path, "not a symbolic link (WebContainer's file API has no symlinks)");
    },
    symlink: async (_target, path) => {
      throw new RuntimeError("ENOSYS", "symlink", path, "WebContainer's file API cannot create symbolic links");
    },
  };

  async function exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const collector = new OutputCollector(opts);
    const stop = new StopControl(opts);
    try {
      if (stop.reason) return { exitCode: null, ...collector.result(), ...stop.flags() };
      const cwd = rel(opts.cwd ?? root, "spawn");
      const process = await wc.spawn("jsh", ["-c", command], {
        cwd,
        env: opts.env ?? {},
        terminal: { cols: 200, rows: 50 },
      });
      stop.onStop(() => process.kill());
      const decoder = new PtyTextDecoder();
      const reader = process.output.getReader();
      const pump = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          collector.push("stdout", decoder.push(value));
        }
        collector.push("stdout", decoder.end());
      })();
      const exitCode = await Promise.race([process.exit, new Promise<null>((resolveStop) => stop.onStop(() => resolveStop(null)))]);
      if (stop.reason) void reader.cancel().catch(() => {});
      else await pump;
      return { exitCode: stop.reason ? null : exitCode, ...collector.result(), ...stop.flags() };
    } finally {
      stop.dispose();
      changes.emit("unknown");
    }
  }

  return {
    kind: "webcontainer",
    root,
    fs,
    capabilities,
    // The container's files are reached through its async API from the page either way.
    search: createLocalSearchService(fs),
    exec,
    onChange: (listener) => changes.add(listener),
    dispose: async () => {
      watcher.close();
      wc.teardown();
    },
  };
}
