// The python3 host: Pyodide and the driver, with a copy of the workspace's files in its own memory file
// system. It runs where nothing of the workbench or the machine can be reached:
// - under node, as a child process started with node's permission model (reads only Pyodide's folder and
//   this file; no child processes, no writes, no workers), talking over the IPC channel;
// - in the page, as a module worker made from a blob inside an `<iframe sandbox="allow-scripts">` (an
//   opaque origin: no IndexedDB, cookies or storage of the workbench, no DOM), fed Pyodide's files by the
//   page, since the sandbox may fetch nothing.
// Plain JavaScript with no imports, so it runs in both places as it is (and needs no TypeScript loader,
// which the permission model would have to let read our sources).
//
// Messages in: init { driver, assets? }, run { id, root, argv, cwd, env, stdin, sync }.
// Messages out: ready, failed { message }, output { id, stream, data }, exit { id, code, changes }.

const isNode = typeof process !== "undefined" && typeof process.versions?.node === "string" && typeof window === "undefined";

/** @type {(message: unknown) => void} */
const post = isNode ? (message) => process.send?.(message) : (message) => globalThis.postMessage(message);

function listen(handler) {
  if (isNode) process.on("message", handler);
  else globalThis.addEventListener("message", (event) => handler(event.data));
}

let pyodide;
let runCommand;
/** What the memory file system holds of the workspace: path -> mtime and size after the last sync. */
const known = new Map();
const knownDirs = new Set();

async function loadNode() {
  // NODEFS (which we never mount) reads fs constants through process.binding, which the permission model
  // refuses; nothing else of process.binding is needed.
  const { constants } = await import("node:fs");
  process.binding = (name) => {
    if (name === "constants") return { fs: constants };
    throw new Error(`process.binding(${name}) is not available`);
  };
  const indexURL = process.env.WB_PYODIDE_DIR;
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const loaded = await loadPyodide({ indexURL, env: { HOME: "/home/pyodide" } });
  closeNetwork();
  return loaded;
}

/** node's modules that reach the network or start code elsewhere; the permission model of node 20 has no
 * switch for the network, so the program's ways to them are closed here (see docs/python.md for the gap). */
const REFUSED_MODULES = new Set([
  "net",
  "tls",
  "http",
  "https",
  "http2",
  "dgram",
  "dns",
  "child_process",
  "cluster",
  "worker_threads",
  "inspector",
]);

function closeNetwork() {
  const getBuiltinModule = process.getBuiltinModule?.bind(process);
  if (getBuiltinModule) {
    process.getBuiltinModule = (name) => {
      if (REFUSED_MODULES.has(String(name).replace(/^node:/, ""))) throw new Error(`python3 may not use node's ${name}`);
      return getBuiltinModule(name);
    };
  }
  for (const name of ["fetch", "WebSocket", "EventSource", "XMLHttpRequest"]) delete globalThis[name];
}

async function loadBrowser(assets) {
  const moduleUrl = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  const { loadPyodide } = await import(moduleUrl(assets.pyodideMjs));
  const createPyodideModule = (await import(moduleUrl(assets.asmMjs))).default;
  const indexURL = "https://pyodide.invalid/";
  const files = {
    [`${indexURL}pyodide.asm.wasm`]: { body: assets.wasm, type: "application/wasm" },
    [`${indexURL}python_stdlib.zip`]: { body: assets.stdlib, type: "application/zip" },
  };
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input) => {
    const file = files[String(input instanceof Request ? input.url : input)];
    if (!file) throw new TypeError("python3 here has no network access");
    return new Response(file.body, { headers: { "content-type": file.type } });
  };
  try {
    return await loadPyodide({ indexURL, lockFileContents: assets.lock, createPyodideModule, env: { HOME: "/home/pyodide" } });
  } finally {
    void realFetch;
    globalThis.fetch = async () => {
      throw new TypeError("python3 here has no network access");
    };
  }
}

/** Emscripten's file errors are objects with an errno and no message. */
function describe(error) {
  if (error instanceof Error && error.message) return error.message;
  if (error && typeof error === "object" && "errno" in error) return `errno ${error.errno}`;
  return String(error);
}

function mkdirs(FS, path) {
  try {
    FS.mkdirTree(path);
  } catch {
    // An existing folder is fine; anything else shows when the file beneath it is written.
  }
}

function removeTree(FS, path) {
  let stat;
  try {
    stat = FS.lstat(path);
  } catch {
    return;
  }
  if (FS.isDir(stat.mode)) {
    for (const name of FS.readdir(path)) if (name !== "." && name !== "..") removeTree(FS, `${path}/${name}`);
    FS.rmdir(path);
  } else FS.unlink(path);
}

/** Brings the memory copy up to date with what the page sent: new and changed files, removals, folders. */
function applySync(root, sync) {
  const FS = pyodide.FS;
  mkdirs(FS, root);
  knownDirs.add(root);
  for (const path of sync.removes) {
    removeTree(FS, path);
    known.delete(path);
    knownDirs.delete(path);
    for (const name of [...known.keys()]) if (name.startsWith(`${path}/`)) known.delete(name);
    for (const name of [...knownDirs]) if (name.startsWith(`${path}/`)) knownDirs.delete(name);
  }
  for (const dir of sync.dirs) {
    mkdirs(FS, dir);
    knownDirs.add(dir);
  }
  for (const file of sync.writes) {
    mkdirs(FS, file.path.slice(0, file.path.lastIndexOf("/")) || "/");
    FS.writeFile(file.path, file.data);
    // The workspace's own time, so a program sees the file's real mtime; a write by the program moves it.
    FS.utime(file.path, file.mtimeMs, file.mtimeMs);
    const stat = FS.stat(file.path);
    known.set(file.path, { mtime: stat.mtime.getTime(), size: stat.size });
  }
}

/** What the program changed under `root`: files written or made, files and folders removed, folders made. */
function collectChanges(root) {
  const FS = pyodide.FS;
  const writes = [];
  const dirs = [];
  const seen = new Set();
  const seenDirs = new Set();
  const walk = (dir) => {
    let names;
    try {
      names = FS.readdir(dir);
    } catch {
      return;
    }
    seenDirs.add(dir);
    if (!knownDirs.has(dir)) dirs.push(dir);
    for (const name of names) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      const stat = FS.lstat(path);
      if (FS.isDir(stat.mode)) walk(path);
      else if (FS.isFile(stat.mode)) {
        seen.add(path);
        const before = known.get(path);
        const now = { mtime: stat.mtime.getTime(), size: stat.size };
        if (!before || before.mtime !== now.mtime || before.size !== now.size) {
          writes.push({ path, data: FS.readFile(path) });
          known.set(path, now);
        }
      }
    }
  };
  walk(root);
  const removes = [];
  for (const path of [...known.keys()]) {
    if (!seen.has(path)) {
      removes.push(path);
      known.delete(path);
    }
  }
  for (const dir of [...knownDirs]) {
    if (!seenDirs.has(dir)) {
      removes.push(dir);
      knownDirs.delete(dir);
    }
  }
  for (const dir of dirs) knownDirs.add(dir);
  return { writes, removes, dirs };
}

async function init(message) {
  try {
    pyodide = isNode ? await loadNode() : await loadBrowser(message.assets);
    pyodide.setStdin({ stdin: () => null });
    // A namespace of its own: `python3 -m` runs the module in __main__'s, which must not be the driver's.
    const namespace = pyodide.globals.get("dict")();
    pyodide.runPython(message.driver, { globals: namespace, filename: "<python3 driver>" });
    runCommand = namespace.get("_wb_run");
    post({ kind: "ready", version: pyodide.version });
  } catch (error) {
    post({ kind: "failed", message: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) });
  }
}

function run(message) {
  const { id } = message;
  const writer = (stream) => ({
    write(buffer) {
      post({ kind: "output", id, stream, data: buffer.slice() });
      return buffer.length;
    },
  });
  pyodide.setStdout(writer("stdout"));
  pyodide.setStderr(writer("stderr"));
  const fail = (what, error) => {
    const text = `python3: ${what}: ${describe(error)}\n`;
    post({ kind: "output", id, stream: "stderr", data: new TextEncoder().encode(text) });
  };
  try {
    // Out of any folder the sync may remove (the last command's cwd among them).
    pyodide.FS.chdir("/");
    applySync(message.root, message.sync);
  } catch (error) {
    // The copy no longer matches what the page thinks it holds: drop it, and have the page send it all again.
    fail("could not copy the workspace into Python's memory", error);
    removeTree(pyodide.FS, message.root);
    known.clear();
    knownDirs.clear();
    post({ kind: "exit", id, code: 1, changes: { writes: [], removes: [], dirs: [] }, resync: true });
    return;
  }
  let code;
  try {
    code = runCommand(message.argv, message.cwd, pyodide.toPy(message.env), message.stdin, message.extraPath, message.root);
  } catch (error) {
    fail("the interpreter failed", error);
    code = 1;
  }
  // Wasm memory never shrinks: the page drops a sandbox that grew large rather than keep it warm.
  const heapBytes = pyodide._module?.HEAP8?.length ?? 0;
  post({ kind: "exit", id, code, changes: collectChanges(message.root), heapBytes });
}

listen((message) => {
  if (message?.kind === "init") void init(message);
  else if (message?.kind === "run") run(message);
});
post({ kind: "started" });
