/**
 * Which folders of the file tree are open, kept apart from the rows that show them: a folder re-read
 * after a change (its rows drawn afresh) stays open, and a reload opens the same folders again. A folder
 * renamed or moved keeps its open folders under the new name; one deleted forgets them.
 */
import { createSignal } from "solid-js";

export interface TreeMemory {
  storage: Pick<Storage, "getItem" | "setItem">;
  key: string;
}

/** More than anyone opens by hand; a corrupted entry cannot grow without bound. */
const MAX_REMEMBERED = 500;

function recall(memory: TreeMemory | undefined): string[] {
  try {
    const raw = memory?.storage.getItem(memory.key);
    const value: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(value) ? value.filter((path): path is string => typeof path === "string").slice(0, MAX_REMEMBERED) : [];
  } catch {
    return [];
  }
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

export function createTreeState(memory?: TreeMemory) {
  const [open, setOpenSet] = createSignal<ReadonlySet<string>>(new Set(recall(memory)));

  const update = (next: Set<string>) => {
    setOpenSet(next);
    if (!memory) return;
    try {
      memory.storage.setItem(memory.key, JSON.stringify([...next].slice(0, MAX_REMEMBERED)));
    } catch {
      // Storage refused: the folders stay open in this page, not after a reload.
    }
  };

  const setOpen = (path: string, value: boolean) => {
    if (open().has(path) === value) return;
    const next = new Set(open());
    if (value) next.add(path);
    else next.delete(path);
    update(next);
  };

  return {
    isOpen: (path: string) => open().has(path),
    setOpen,
    toggle: (path: string) => setOpen(path, !open().has(path)),
    /** A folder (or file) moved from `from` to `to`: open folders under it move along. */
    moved(from: string, to: string) {
      if (![...open()].some((path) => under(path, from))) return;
      update(new Set([...open()].map((path) => (under(path, from) ? to + path.slice(from.length) : path))));
    },
    /** A folder deleted: it and the folders under it are no longer open. */
    removed(path: string) {
      if (![...open()].some((p) => under(p, path))) return;
      update(new Set([...open()].filter((p) => !under(p, path))));
    },
    /** The open folders, for tests and for saving. */
    openPaths: () => [...open()].sort(),
  };
}

export type TreeState = ReturnType<typeof createTreeState>;
