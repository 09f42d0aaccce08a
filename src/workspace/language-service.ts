/**
 * The workspace's language service: one per runtime, shared by the tool session (diagnostics after writes,
 * the lsp tool) and the editor (squiggles), so both see the same diagnostics. It reads the files through
 * the Runtime, keeps the project told of every change the runtime reports, and starts its backend (a page
 * worker, or TypeScript in this thread) only when a covered file is first touched.
 */
import type { BackendFactory, LanguageBackend, WorkspaceFiles } from "../lsp/backend.js";
import type { Diagnostic, Listing, Query } from "../lsp/types.js";
import { isCovered, isScript } from "../lsp/types.js";
import { isRuntimeError } from "../runtime/errors.js";
import type { Runtime } from "../runtime/types.js";
import { languageBackend } from "./language-backend.js";

/** Files larger than this are left out of the project (a bundle, a generated table), as editors do. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** How long runtime changes gather before open files' diagnostics are recomputed for the editor. */
const CHANGE_DEBOUNCE_MS = 150;

type Listener = (path: string, diagnostics: Diagnostic[]) => void;

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}/`);
}

/** The workspace's files for a project: confined to the workspace, absent files as null. */
export function runtimeFiles(runtime: Runtime): WorkspaceFiles {
  const decoder = new TextDecoder();
  /** Inside by name and, links followed, by where it really is: a link out of the workspace leads nowhere. */
  const reallyInside = async (path: string) => inside(runtime.root, path) && inside(runtime.root, await runtime.fs.realpath(path));
  const readOne = async (path: string): Promise<string | null> => {
    try {
      if (!(await reallyInside(path))) return null;
      const stat = await runtime.fs.stat(path);
      if (stat.type !== "file" || stat.size > MAX_FILE_BYTES) return null;
      return decoder.decode(await runtime.fs.readFile(path));
    } catch (error) {
      if (isRuntimeError(error)) return null;
      throw error;
    }
  };
  const listOne = async (dir: string): Promise<Listing | null> => {
    try {
      if (!(await reallyInside(dir))) return null;
      const entries = await runtime.fs.readdir(dir);
      const listing: Listing = { files: [], dirs: [] };
      for (const entry of entries) {
        let type = entry.type;
        if (type === "symlink")
          type = await runtime.fs.stat(`${dir === "/" ? "" : dir}/${entry.name}`).then(
            (s) => s.type,
            () => "file" as const,
          );
        if (type === "directory") listing.dirs.push(entry.name);
        else if (type === "file") listing.files.push(entry.name);
      }
      return listing;
    } catch (error) {
      if (isRuntimeError(error)) return null;
      throw error;
    }
  };
  return {
    read: async (paths) => Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await readOne(p)] as const))),
    list: async (dirs) => Object.fromEntries(await Promise.all(dirs.map(async (d) => [d, await listOne(d)] as const))),
  };
}

export class WorkspaceLanguageService {
  private backend: Promise<LanguageBackend> | undefined;
  private readonly opened = new Set<string>();
  private readonly touching = new Set<Promise<void>>();
  private readonly listeners = new Set<Listener>();
  private readonly files: WorkspaceFiles;
  private readonly stopWatching: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending = new Set<string>();
  private everything = false;
  private disposed = false;

  constructor(
    readonly runtime: Runtime,
    private readonly factory: BackendFactory,
  ) {
    this.files = runtimeFiles(runtime);
    this.stopWatching = runtime.onChange((paths) => this.changed(paths));
  }

  covers(path: string): boolean {
    return isCovered(path);
  }

  answers(path: string): boolean {
    return isScript(path);
  }

  /** Whether TypeScript has been started (tests and the bench measure the first load with it). */
  get started(): boolean {
    return this.backend !== undefined;
  }

  private start(): Promise<LanguageBackend> {
    if (this.disposed) return Promise.reject(new Error("the language service was closed with its workspace"));
    this.backend ??= this.factory(this.runtime.root, this.files);
    return this.backend;
  }

  /**
   * Opens the file (at once, so a diagnostics() that follows includes it even when this call was not
   * awaited, as read does) and gives the project its text as it is now.
   */
  touchFile(path: string, edited: boolean): Promise<void> {
    if (!this.covers(path)) return Promise.resolve();
    this.opened.add(path);
    const touch = (async () => {
      const backend = await this.start();
      const text = (await this.files.read([path]))[path] ?? null;
      await backend.update(path, text);
      if (text === null) this.opened.delete(path);
    })();
    // An edited file's diagnostics are computed by the caller next (diagnostics()); the editor hears of
    // them from there, and of the change itself through the runtime's change report.
    void edited;
    this.touching.add(touch);
    const settled = () => void this.touching.delete(touch);
    touch.then(settled, settled);
    return touch;
  }

  /** Diagnostics of every open file, also handed to the editor's listeners. */
  async diagnostics(): Promise<Record<string, Diagnostic[]>> {
    await Promise.allSettled([...this.touching]);
    // Changes reported but not yet applied (a shell command just ran) go in first.
    await this.sync();
    if (this.opened.size === 0) return {};
    const backend = await this.start();
    const found = await backend.diagnostics([...this.opened]);
    for (const [path, list] of Object.entries(found)) this.emit(path, list);
    return found;
  }

  async query(query: Query): Promise<unknown> {
    const backend = await this.start();
    return backend.query(query);
  }

  /** The editor's subscription: called with a file's diagnostics whenever they are computed. */
  onDiagnostics(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Opens a file for the editor and returns its diagnostics now. */
  async open(path: string): Promise<Diagnostic[]> {
    await this.touchFile(path, false);
    if (!this.opened.has(path)) return [];
    const found = await (await this.start()).diagnostics([path]);
    const list = found[path] ?? [];
    this.emit(path, list);
    return list;
  }

  private emit(path: string, list: Diagnostic[]): void {
    for (const listener of this.listeners) listener(path, list);
  }

  /** The runtime changed files (a tool, the terminal, the editor): tell the project, then refresh listeners. */
  private changed(paths: string[] | "unknown"): void {
    if (!this.backend || this.disposed) return;
    this.schedule(paths);
  }

  private schedule(paths: string[] | "unknown"): void {
    if (paths === "unknown") this.everything = true;
    else for (const path of paths) this.pending.add(path);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), CHANGE_DEBOUNCE_MS);
  }

  /** Applies the changes the runtime reported since the last time (a refresh when it could not say which). */
  private async sync(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.everything && this.pending.size === 0) return;
    const backend = await this.start();
    const everything = this.everything;
    const paths = everything ? [...this.opened] : [...this.pending].filter((p) => this.covers(p) || p.endsWith("/package.json"));
    this.pending.clear();
    this.everything = false;
    if (everything) await backend.refresh();
    if (paths.length > 0) {
      const texts = await this.files.read(paths);
      for (const path of paths) {
        await backend.update(path, texts[path] ?? null);
        if (texts[path] === null) this.opened.delete(path);
      }
    }
  }

  private async flush(): Promise<void> {
    await this.sync();
    if (this.listeners.size > 0) await this.diagnostics();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.stopWatching();
    void this.backend?.then(
      (b) => b.dispose(),
      () => undefined,
    );
  }
}

const services = new WeakMap<Runtime, WorkspaceLanguageService>();

/** The runtime's one language service; undefined when this process has no backend chosen. */
export function languageServiceFor(runtime: Runtime): WorkspaceLanguageService | undefined {
  const existing = services.get(runtime);
  if (existing) return existing;
  const factory = languageBackend();
  if (!factory) return undefined;
  const service = new WorkspaceLanguageService(runtime, factory);
  services.set(runtime, service);
  return service;
}
