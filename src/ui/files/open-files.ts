import { createSignal, type Accessor } from "solid-js";

export interface OpenFile {
  path: string;
  dirty: Accessor<boolean>;
  setDirty: (dirty: boolean) => void;
}

/** The files open beside the terminal in the middle column, and which tab shows (undefined: the terminal). */
export function createOpenFiles() {
  const [files, setFiles] = createSignal<OpenFile[]>([]);
  const [active, setActive] = createSignal<string | undefined>(undefined);

  const open = (path: string) => {
    if (!files().some((file) => file.path === path)) {
      const [dirty, setDirty] = createSignal(false);
      setFiles((all) => [...all, { path, dirty, setDirty }]);
    }
    setActive(path);
  };

  /** Closes a file's tab; the tab before it (a file, or the terminal) becomes active. */
  const close = (path: string) => {
    const all = files();
    const index = all.findIndex((file) => file.path === path);
    if (index < 0) return;
    const rest = all.filter((file) => file.path !== path);
    setFiles(rest);
    if (active() === path) setActive(rest[index - 1]?.path);
  };

  return {
    files,
    /** The open file shown, or undefined for the terminal. */
    active,
    open,
    close,
    showTerminal: () => setActive(undefined),
    show: (path: string | undefined) => setActive(path),
  };
}

export type OpenFiles = ReturnType<typeof createOpenFiles>;
