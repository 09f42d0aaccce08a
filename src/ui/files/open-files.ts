import { createSignal, type Accessor } from "solid-js";

/** Where a file is to be shown: a line (1-based) and, on it, the UTF-16 range to highlight. */
export interface RevealTarget {
  line: number;
  from: number;
  to: number;
  /** Counts the requests, so the same place asked for twice is revealed twice. */
  seq: number;
}

export interface OpenFile {
  path: string;
  dirty: Accessor<boolean>;
  setDirty: (dirty: boolean) => void;
  /** The last place asked for (a Find in files hit), for the editor to scroll to and highlight. */
  reveal: Accessor<RevealTarget | undefined>;
}

/** Where the open tabs are remembered across reloads (localStorage), under one key per workspace. */
export interface TabsMemory {
  storage: Pick<Storage, "getItem" | "setItem">;
  key: string;
}

interface Remembered {
  paths: string[];
  active?: string;
}

// Checked by hand, not with zod: this runs before the first paint, and zod loads after it.
function recall(memory: TabsMemory | undefined): Remembered {
  try {
    const raw = memory?.storage.getItem(memory.key);
    const value: unknown = raw ? JSON.parse(raw) : undefined;
    if (typeof value === "object" && value !== null && "paths" in value && Array.isArray(value.paths)) {
      const paths = value.paths.filter((path): path is string => typeof path === "string").slice(0, 200);
      const active = "active" in value && typeof value.active === "string" ? value.active : undefined;
      return { paths, ...(active !== undefined ? { active } : {}) };
    }
  } catch {
    // Unreadable or unparsable: start with the terminal alone.
  }
  return { paths: [] };
}

/** The files open beside the terminal in the middle column, and which tab shows (undefined: the terminal). */
export function createOpenFiles(memory?: TabsMemory) {
  const [files, setFiles] = createSignal<OpenFile[]>([]);
  const [active, setActive] = createSignal<string | undefined>(undefined);
  let seq = 0;

  const remember = () => {
    if (!memory) return;
    try {
      const current = active();
      memory.storage.setItem(
        memory.key,
        JSON.stringify({ paths: files().map((file) => file.path), ...(current ? { active: current } : {}) }),
      );
    } catch {
      // Storage full or refused: the tabs are not remembered, nothing else is lost.
    }
  };

  const add = (path: string): OpenFile => {
    const existing = files().find((file) => file.path === path);
    if (existing) return existing;
    const [dirty, setDirty] = createSignal(false);
    const [reveal, setReveal] = createSignal<RevealTarget | undefined>(undefined);
    const file = { path, dirty, setDirty, reveal, setReveal };
    setFiles((all) => [...all, file]);
    return file;
  };

  const saved = recall(memory);
  for (const path of saved.paths) add(path);
  if (saved.active && saved.paths.includes(saved.active)) setActive(saved.active);

  /** Opens (or shows) a file; with `at`, the editor scrolls to that line and highlights the range. */
  const open = (path: string, at?: { line: number; from: number; to: number }) => {
    const file = add(path) as OpenFile & { setReveal: (target: RevealTarget) => void };
    if (at) file.setReveal({ ...at, seq: ++seq });
    setActive(path);
    remember();
  };

  /** Closes a file's tab; the tab before it (a file, or the terminal) becomes active. */
  const close = (path: string) => {
    const all = files();
    const index = all.findIndex((file) => file.path === path);
    if (index < 0) return;
    const rest = all.filter((file) => file.path !== path);
    setFiles(rest);
    if (active() === path) setActive(rest[index - 1]?.path);
    remember();
  };

  const show = (path: string | undefined) => {
    setActive(path);
    remember();
  };

  /**
   * A file or folder was renamed or moved: its tabs (and those of files under it) follow, unless one
   * has unsaved edits (that one stays, and its editor says the file is gone, offering to save it again).
   */
  const moved = (from: string, to: string) => {
    const affected = files().filter((file) => (file.path === from || file.path.startsWith(`${from}/`)) && !file.dirty());
    if (affected.length === 0) return;
    const wasActive = active();
    for (const file of affected) close(file.path);
    for (const file of affected) add(to + file.path.slice(from.length));
    const shown = affected.find((file) => file.path === wasActive);
    setActive(shown ? to + shown.path.slice(from.length) : wasActive);
    remember();
  };

  /** A file or folder was deleted: the tabs under it close, except one with unsaved edits (its editor offers to save it again). */
  const removed = (path: string) => {
    for (const file of files()) if ((file.path === path || file.path.startsWith(`${path}/`)) && !file.dirty()) close(file.path);
  };

  /**
   * Closes the clean tabs whose files are gone (deleted from the terminal, or while the page was closed),
   * so a reload does not bring back tabs of files that no longer exist.
   */
  const closeMissing = async (exists: (path: string) => Promise<boolean>) => {
    const checked = await Promise.all(files().map(async (file) => ({ file, there: await exists(file.path).catch(() => true) })));
    for (const { file, there } of checked) if (!there && !file.dirty()) close(file.path);
  };

  return {
    files,
    moved,
    removed,
    closeMissing,
    /** The open file shown, or undefined for the terminal. */
    active,
    open,
    close,
    showTerminal: () => show(undefined),
    show,
  };
}

export type OpenFiles = ReturnType<typeof createOpenFiles>;
