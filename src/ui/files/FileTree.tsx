import { basename, dirname, join } from "pathe";
import { createEffect, createResource, createSignal, For, Match, onCleanup, Show, Switch } from "solid-js";
import type { DirEntry, EntryType, Runtime } from "../../runtime/types.js";
import { createFile, createFolder, deleteEntry, dropFiles, moveEntry, NameTaken, renameEntry } from "../../workspace/file-actions.js";
import type { IncomingFile } from "../../workspace/transfer.js";
import { saveBytes } from "../download.js";
import "./files.css";
import type { TreeState } from "./tree-state.js";
import { ignoredNames } from "../../workspace/ignored-entries.js";
import { errorMessage } from "../../base/error-message.js";

function sortEntries(entries: DirEntry[]): DirEntry[] {
  return [...entries].sort((a, b) => {
    const folder = Number(b.type === "directory") - Number(a.type === "directory");
    // Numbers in names in their order (mod2 before mod10), as file managers sort.
    return folder !== 0 ? folder : a.name.localeCompare(b.name, undefined, { numeric: true });
  });
}

/** A drag from one row to another carries the dragged path under this type (files from the desktop carry "Files"). */
const TREE_DRAG = "application/x-workbench-path";

type Action = { kind: "new-file" | "new-folder"; folder: string } | { kind: "rename" | "move"; path: string; folder: boolean };

interface MenuAt {
  path: string;
  folder: boolean;
  x: number;
  y: number;
  /** The row's name button, focused again when the menu closes. */
  from: HTMLElement | undefined;
}

const messageOf = (error: unknown) => errorMessage(error);

/**
 * The workspace's files: folders opened on demand (and kept open across changes and reloads by
 * `tree`), a file opened in the editor by `onOpen`, and the actions on them: new file, new folder,
 * rename, move, delete, from a context menu (right click, the menu key or Shift+F10), F2 and Delete,
 * and by dragging rows onto folders or files from the desktop onto the tree. Every action goes through
 * the workspace's file actions (the runtime's file operations the tools use). It re-reads what is open
 * whenever the runtime says files may have changed, a little after the last change.
 */
export function FileTree(props: {
  runtime: () => Runtime;
  tree: TreeState;
  readOnly: boolean;
  onError: (message: string) => void;
  onOpen: (path: string) => void;
  /** A file or folder moved or renamed (open tabs follow), or deleted (`to` undefined). */
  onMoved?: (from: string, to: string | undefined) => void;
}) {
  const [version, setVersion] = createSignal(0);
  const [action, setAction] = createSignal<Action | undefined>();
  const [menu, setMenu] = createSignal<MenuAt | undefined>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bump = () => {
    clearTimeout(timer);
    timer = setTimeout(() => setVersion((v) => v + 1), 120);
  };
  // Follows the active runtime (a booted WebContainer replaces the embedded one).
  createEffect(() => {
    const off = props.runtime().onChange(bump);
    bump();
    onCleanup(off);
  });
  onCleanup(() => clearTimeout(timer));
  const current = () => props.runtime();
  const root = () => current().root;
  const shown = (path: string) => (path === root() ? "the workspace" : path.slice(root().length + 1));

  const [formError, setFormError] = createSignal<string | undefined>();
  const [deleting, setDeleting] = createSignal<{ path: string; folder: boolean; from: HTMLElement | undefined } | undefined>();
  /**
   * Runs an action; a name taken asks once before replacing. Errors go to `fail`: the name form's own
   * line while it is open (the name can be fixed there), the page's notices otherwise.
   */
  async function attempt<T>(
    what: string,
    run: (overwrite: boolean) => Promise<T>,
    fail: (message: string) => void = (m) => props.onError(m),
  ): Promise<T | undefined> {
    try {
      return await run(false);
    } catch (error) {
      if (error instanceof NameTaken && window.confirm(`${shown(error.path)} already exists. Replace it?`)) {
        try {
          return await run(true);
        } catch (again) {
          fail(`${what}: ${messageOf(again)}`);
          return undefined;
        }
      }
      if (!(error instanceof NameTaken)) fail(`${what}: ${messageOf(error)}`);
      return undefined;
    }
  }

  const actions: TreeActions = {
    readOnly: () => props.readOnly,
    menu: (at) => setMenu(at),
    start: (next) => {
      setMenu(undefined);
      setFormError(undefined);
      if (!props.readOnly) setAction(next);
    },
    remove(path, folder) {
      setMenu(undefined);
      if (props.readOnly) return;
      // Asked in the tree itself (the browser's confirm() blocks the page and reads as an alarm).
      setDeleting({ path, folder, from: document.activeElement instanceof HTMLElement ? document.activeElement : undefined });
    },
    async confirmRemove(path) {
      setDeleting(undefined);
      try {
        await deleteEntry(current(), path);
        props.tree.removed(path);
        props.onMoved?.(path, undefined);
        bump();
      } catch (error) {
        props.onError(`Could not delete ${shown(path)}: ${messageOf(error)}`);
      }
    },
    async move(path, folder) {
      if (props.readOnly || dirname(path) === folder) return;
      const moved = await attempt(`Could not move ${shown(path)}`, (overwrite) => moveEntry(current(), path, folder, { overwrite }));
      if (!moved) return;
      // The folder it went into opens, so the user sees where it is now.
      if (folder !== root()) props.tree.setOpen(folder, true);
      afterMove(path, moved);
    },
    async drop(folder, files) {
      if (props.readOnly) return props.onError("This tab is read-only: files cannot be dropped here.");
      try {
        let outcome = await dropFiles(current(), folder, files);
        if (outcome.taken.length > 0) {
          const names = outcome.taken.map(shown).join(", ");
          if (!window.confirm(`${names} already ${outcome.taken.length === 1 ? "exists" : "exist"}. Replace?`)) return;
          outcome = await dropFiles(current(), folder, files, { overwrite: true });
        }
        props.tree.setOpen(folder, true);
        bump();
      } catch (error) {
        props.onError(`Could not add the dropped files: ${messageOf(error)}`);
      }
    },
    open: (path) => props.onOpen(path),
    tree: props.tree,
    onError: props.onError,
  };

  function afterMove(from: string, to: string) {
    props.tree.moved(from, to);
    props.onMoved?.(from, to);
    bump();
  }

  async function submit(value: string) {
    const now = action();
    if (!now) return;
    const runtime = current();
    switch (now.kind) {
      case "new-file": {
        const made = await attempt("Could not make the file", () => createFile(runtime, now.folder, value), setFormError);
        if (!made) return;
        // A name with folders in it (docs/notes.md) opens every folder on the way to the new file.
        for (let folder = dirname(made); folder.length >= now.folder.length; folder = dirname(folder)) {
          props.tree.setOpen(folder, true);
          if (folder === now.folder || folder === "/") break;
        }
        setAction(undefined);
        bump();
        props.onOpen(made);
        return;
      }
      case "new-folder": {
        const made = await attempt("Could not make the folder", () => createFolder(runtime, now.folder, value), setFormError);
        if (!made) return;
        props.tree.setOpen(now.folder, true);
        setAction(undefined);
        bump();
        return;
      }
      case "rename": {
        const moved = await attempt(
          `Could not rename ${basename(now.path)}`,
          (overwrite) => renameEntry(runtime, now.path, value, { overwrite }),
          setFormError,
        );
        if (!moved) return;
        setAction(undefined);
        afterMove(now.path, moved);
        return;
      }
      case "move": {
        const folder = value.trim() === "" || value.trim() === "/" ? root() : join(root(), value.trim());
        const moved = await attempt(
          `Could not move ${basename(now.path)}`,
          (overwrite) => moveEntry(runtime, now.path, folder, { overwrite }),
          setFormError,
        );
        if (!moved) return;
        if (folder !== root()) props.tree.setOpen(folder, true);
        setAction(undefined);
        afterMove(now.path, moved);
        return;
      }
    }
  }

  // Dropping on the tree's empty space puts files (or a dragged row) at the top of the workspace.
  const dropHere = (event: DragEvent, folder: string) => {
    const kind = dragKind(event);
    if (!kind) return;
    event.preventDefault();
    event.stopPropagation();
    setDropTarget(undefined);
    void receiveDrop(event, folder, actions);
  };
  const [dropTarget, setDropTarget] = createSignal<string | undefined>();

  return (
    <nav
      class="file-tree"
      aria-label="Workspace files"
      classList={{ "drop-target": dropTarget() === root() }}
      onDragOver={(event) => {
        if (!dragKind(event) || props.readOnly) return;
        event.preventDefault();
        setDropTarget(root());
      }}
      onDragLeave={(event) => {
        if (event.currentTarget === event.target) setDropTarget(undefined);
      }}
      onDrop={(event) => dropHere(event, root())}
      onContextMenu={(event) => {
        if ((event.target as HTMLElement).closest("[role=treeitem]")) return;
        event.preventDefault();
        setMenu({ path: root(), folder: true, x: event.clientX, y: event.clientY, from: undefined });
      }}
    >
      <Show when={!props.readOnly}>
        <div class="tree-toolbar">
          <button
            type="button"
            class="tree-action"
            data-testid="tree-new-file"
            title="New file at the top of the workspace"
            onClick={() => actions.start({ kind: "new-file", folder: root() })}
          >
            + File
          </button>
          <button
            type="button"
            class="tree-action"
            data-testid="tree-new-folder"
            title="New folder at the top of the workspace"
            onClick={() => actions.start({ kind: "new-folder", folder: root() })}
          >
            + Folder
          </button>
          <span class="tree-hint">Right-click, F2 or Delete on a name; drop files on a folder</span>
        </div>
      </Show>
      <Show when={action()}>
        {(now) => (
          <NameForm
            action={now()}
            root={root()}
            error={formError()}
            onSubmit={(value) => void submit(value)}
            onCancel={() => (setAction(undefined), setFormError(undefined))}
          />
        )}
      </Show>
      <Show when={deleting()}>
        {(target) => (
          <DeleteConfirm
            what={target().folder ? `the folder ${shown(target().path)} and everything in it` : shown(target().path)}
            onDelete={() => void actions.confirmRemove(target().path)}
            onCancel={() => {
              target().from?.focus();
              setDeleting(undefined);
            }}
          />
        )}
      </Show>
      <ul role="tree" aria-label={root()} onKeyDown={(event) => onTreeKey(event, actions)}>
        <Folder
          path={root()}
          runtime={current}
          version={version}
          depth={0}
          actions={actions}
          dropTarget={dropTarget}
          setDropTarget={setDropTarget}
        />
      </ul>
      <Show when={menu()}>{(at) => <TreeMenu at={at()} root={root()} actions={actions} onClose={() => setMenu(undefined)} />}</Show>
    </nav>
  );
}

/** What rows and the menu may do, handed down instead of many props. */
interface TreeActions {
  readOnly: () => boolean;
  menu: (at: MenuAt) => void;
  start: (action: Action) => void;
  /** Asks in the tree whether to delete; `confirmRemove` deletes once the person says so. */
  remove: (path: string, folder: boolean) => void;
  confirmRemove: (path: string) => Promise<void>;
  move: (path: string, folder: string) => Promise<void>;
  drop: (folder: string, files: IncomingFile[]) => Promise<void>;
  open: (path: string) => void;
  tree: TreeState;
  onError: (message: string) => void;
}

function dragKind(event: DragEvent): "files" | "row" | undefined {
  const types = event.dataTransfer?.types ?? [];
  if (types.includes(TREE_DRAG)) return "row";
  if (types.includes("Files")) return "files";
  return undefined;
}

async function receiveDrop(event: DragEvent, folder: string, actions: TreeActions): Promise<void> {
  const transfer = event.dataTransfer;
  if (!transfer) return;
  const dragged = transfer.getData(TREE_DRAG);
  if (dragged) return actions.move(dragged, folder);
  const files = [...transfer.files];
  if (files.length === 0) return;
  try {
    const incoming = await Promise.all(files.map(async (file) => ({ path: file.name, data: new Uint8Array(await file.arrayBuffer()) })));
    await actions.drop(folder, incoming);
  } catch (error) {
    // A folder dragged from the desktop arrives as an unreadable "file".
    actions.onError(`Could not read the dropped files (${messageOf(error)}): drop files, or use Upload folder for a folder.`);
  }
}

/** Delete, asked where it was asked for: Delete or Cancel, Escape cancels, focus starts on Cancel. */
function DeleteConfirm(props: { what: string; onDelete: () => void; onCancel: () => void }) {
  let cancel: HTMLButtonElement | undefined;
  queueMicrotask(() => cancel?.focus());
  return (
    <div
      class="tree-confirm"
      role="alertdialog"
      aria-labelledby="tree-confirm-text"
      data-testid="tree-delete-confirm"
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        props.onCancel();
      }}
    >
      <p id="tree-confirm-text">Delete {props.what}? This cannot be undone.</p>
      <button type="button" class="button danger" data-testid="tree-delete-yes" onClick={() => props.onDelete()}>
        Delete
      </button>
      <button type="button" class="button" data-testid="tree-delete-no" ref={cancel} onClick={() => props.onCancel()}>
        Cancel
      </button>
    </div>
  );
}

/** The name typed for a new file or folder, a rename, or the folder to move into. Enter submits, Escape cancels. */
function NameForm(props: {
  action: Action;
  root: string;
  error: string | undefined;
  onSubmit: (value: string) => void;
  onCancel: () => void;
}) {
  const relative = (path: string) => (path === props.root ? "" : path.slice(props.root.length + 1));
  const label = () => {
    const a = props.action;
    switch (a.kind) {
      case "new-file":
        return `New file in ${relative(a.folder) || "the workspace"}`;
      case "new-folder":
        return `New folder in ${relative(a.folder) || "the workspace"}`;
      case "rename":
        return `Rename ${relative(a.path)} to`;
      case "move":
        return `Move ${relative(a.path)} into the folder (empty: the top)`;
    }
  };
  const initial = () => {
    const a = props.action;
    if (a.kind === "rename") return basename(a.path);
    if (a.kind === "move") return relative(dirname(a.path));
    return "";
  };
  let input!: HTMLInputElement;
  createEffect(() => {
    props.action;
    queueMicrotask(() => {
      input.focus();
      const value = input.value;
      // A rename selects the name without its extension, as file managers do.
      const dot = props.action.kind === "rename" && !(props.action as { folder: boolean }).folder ? value.lastIndexOf(".") : -1;
      input.setSelectionRange(0, dot > 0 ? dot : value.length);
    });
  });
  return (
    <form
      class="tree-form"
      data-testid="tree-form"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit(input.value);
      }}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        props.onCancel();
      }}
    >
      <label>
        <span>{label()}</span>
        <input
          ref={input}
          type="text"
          value={initial()}
          spellcheck={false}
          autocomplete="off"
          data-testid="tree-form-input"
          aria-invalid={props.error !== undefined}
          aria-describedby={props.error !== undefined ? "tree-form-error" : undefined}
        />
      </label>
      <button type="submit" class="button primary">
        OK
      </button>
      <button type="button" class="button" onClick={() => props.onCancel()}>
        Cancel
      </button>
      <Show when={props.error}>
        <p class="tree-form-error" id="tree-form-error" role="alert" data-testid="tree-form-error">
          {props.error}
        </p>
      </Show>
    </form>
  );
}

/** The context menu of a row (or of the tree's empty space: the workspace's top folder). Arrows move, Escape closes. */
function TreeMenu(props: { at: MenuAt; root: string; actions: TreeActions; onClose: () => void }) {
  let menu!: HTMLDivElement;
  const isRoot = () => props.at.path === props.root;
  const close = () => {
    // Read before closing: the menu's props are gone once it is closed.
    const from = props.at.from;
    props.onClose();
    from?.focus();
  };
  const items = () => {
    const { path, folder } = props.at;
    const a = props.actions;
    const all: { label: string; key?: string; id: string; run: () => void }[] = [];
    if (!folder) all.push({ id: "open", label: "Open", run: () => (props.onClose(), a.open(path)) });
    if (!a.readOnly()) {
      if (folder) {
        all.push({ id: "new-file", label: "New file…", run: () => a.start({ kind: "new-file", folder: path }) });
        all.push({ id: "new-folder", label: "New folder…", run: () => a.start({ kind: "new-folder", folder: path }) });
      }
      if (!isRoot()) {
        all.push({ id: "rename", label: "Rename…", key: "F2", run: () => a.start({ kind: "rename", path, folder }) });
        all.push({ id: "move", label: "Move to…", run: () => a.start({ kind: "move", path, folder }) });
        all.push({ id: "delete", label: "Delete", key: "Delete", run: () => void a.remove(path, folder) });
      }
    }
    return all;
  };
  createEffect(() => {
    props.at;
    queueMicrotask(() => menu?.querySelector<HTMLElement>("[role=menuitem]")?.focus());
  });
  const away = (event: PointerEvent) => {
    if (!menu.contains(event.target as Node)) props.onClose();
  };
  document.addEventListener("pointerdown", away, true);
  onCleanup(() => document.removeEventListener("pointerdown", away, true));
  const onKey = (event: KeyboardEvent) => {
    const entries = [...menu.querySelectorAll<HTMLElement>("[role=menuitem]")];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      return close();
    }
    if (event.key === "ArrowDown") next = entries[(index + 1) % entries.length];
    else if (event.key === "ArrowUp") next = entries[(index - 1 + entries.length) % entries.length];
    else if (event.key === "Home") next = entries[0];
    else if (event.key === "End") next = entries.at(-1);
    else return;
    event.preventDefault();
    next?.focus();
  };
  // Kept inside the window, however near its edge the click was.
  const left = () => Math.max(4, Math.min(props.at.x, window.innerWidth - 190));
  const top = () => Math.max(4, Math.min(props.at.y, window.innerHeight - 40 - items().length * 30));
  return (
    <div
      ref={menu}
      class="tree-menu"
      role="menu"
      aria-label={`Actions on ${isRoot() ? "the workspace" : basename(props.at.path)}`}
      data-testid="tree-menu"
      style={{ left: `${left()}px`, top: `${top()}px` }}
      onKeyDown={onKey}
    >
      <Show when={items().length > 0} fallback={<p class="tree-menu-note">Read-only tab: nothing can be changed here.</p>}>
        <For each={items()}>
          {(item) => (
            <button type="button" role="menuitem" tabIndex={-1} data-action={item.id} onClick={() => item.run()}>
              <span>{item.label}</span>
              <Show when={item.key}>
                <kbd>{item.key}</kbd>
              </Show>
            </button>
          )}
        </For>
      </Show>
    </div>
  );
}

/**
 * Keys as in a file explorer (Tab still visits every entry): up and down move between the visible
 * names, right opens a folder, left closes it or goes to the folder holding the entry; F2 renames,
 * Delete deletes, the menu key or Shift+F10 opens the context menu.
 */
function onTreeKey(event: KeyboardEvent, actions: TreeActions) {
  const tree = event.currentTarget as HTMLElement;
  const current = (event.target as HTMLElement).closest<HTMLElement>("button.tree-name");
  if (!current) return;
  const names = [...tree.querySelectorAll<HTMLElement>("button.tree-name")];
  const index = names.indexOf(current);
  const item = current.closest<HTMLElement>('[role="treeitem"]');
  const expanded = item?.getAttribute("aria-expanded");
  const path = item?.dataset.path;
  const folder = expanded !== null && expanded !== undefined;
  let next: HTMLElement | undefined;
  switch (event.key) {
    case "ArrowDown":
      next = names[index + 1];
      break;
    case "ArrowUp":
      next = names[index - 1];
      break;
    case "Home":
      next = names[0];
      break;
    case "End":
      next = names[names.length - 1];
      break;
    case "ArrowRight":
      if (expanded === "false") current.click();
      else if (expanded === "true") next = names[index + 1];
      break;
    case "ArrowLeft":
      if (expanded === "true") current.click();
      else
        next = item?.parentElement?.closest<HTMLElement>('[role="treeitem"]')?.querySelector<HTMLElement>("button.tree-name") ?? undefined;
      break;
    case "F2":
      if (path) actions.start({ kind: "rename", path, folder });
      break;
    case "Delete":
      if (path) void actions.remove(path, folder);
      break;
    case "ContextMenu":
    case "F10":
      if (event.key === "F10" && !event.shiftKey) return;
      if (path) {
        const box = current.getBoundingClientRect();
        actions.menu({ path, folder, x: box.left + 16, y: box.bottom, from: current });
      }
      break;
    default:
      return;
  }
  event.preventDefault();
  next?.focus();
}

function Folder(props: {
  path: string;
  runtime: () => Runtime;
  version: () => number;
  depth: number;
  actions: TreeActions;
  dropTarget: () => string | undefined;
  setDropTarget: (path: string | undefined) => void;
}) {
  const [entries] = createResource(
    () => [props.path, props.version(), props.runtime()] as const,
    async ([path, , runtime]) => sortEntries(await runtime.fs.readdir(path)),
  );
  // Rows rg would not search (a .gitignore'd node_modules) are dimmed, judged once the listing is in.
  const [ignored] = createResource(
    () => entries.latest && ([props.path, entries.latest, props.runtime()] as const),
    ([path, list, runtime]) => ignoredNames(runtime.fs, runtime.root, path, list).catch(() => new Set<string>()),
  );
  // Rows are keyed by name and kind, so a re-read keeps each row (its focus, and what is open under it).
  const keys = () => (entries.latest ?? []).map((entry) => `${entry.type}:${entry.name}`);
  return (
    <Show
      when={!entries.error}
      fallback={
        <li class="tree-error" role="treeitem" aria-disabled="true">
          Cannot list {basename(props.path)}: {String(entries.error)}
        </li>
      }
    >
      <Show
        when={entries.latest?.length !== 0}
        fallback={
          <li class="tree-empty" role="treeitem" aria-disabled="true" style={{ "padding-left": `${props.depth + 1}em` }}>
            (empty)
          </li>
        }
      >
        <For each={keys()}>
          {(key) => {
            const split = key.indexOf(":");
            const entry: DirEntry = { type: key.slice(0, split) as EntryType, name: key.slice(split + 1) };
            return (
              <Entry
                entry={entry}
                ignored={() => ignored.latest?.has(entry.name) ?? false}
                parent={props.path}
                runtime={props.runtime}
                version={props.version}
                depth={props.depth}
                actions={props.actions}
                dropTarget={props.dropTarget}
                setDropTarget={props.setDropTarget}
              />
            );
          }}
        </For>
      </Show>
    </Show>
  );
}

function Entry(props: {
  entry: DirEntry;
  /** rg would leave it out (ignore files): drawn dimmed. */
  ignored: () => boolean;
  parent: string;
  runtime: () => Runtime;
  version: () => number;
  depth: number;
  actions: TreeActions;
  dropTarget: () => string | undefined;
  setDropTarget: (path: string | undefined) => void;
}) {
  const path = () => join(props.parent, props.entry.name);
  const folder = props.entry.type === "directory";
  const open = () => folder && props.actions.tree.isOpen(path());
  const download = async () => {
    try {
      saveBytes(await props.runtime().fs.readFile(path()), props.entry.name);
    } catch (error) {
      props.actions.onError(`Could not download ${props.entry.name}: ${errorMessage(error)}`);
    }
  };
  let name: HTMLButtonElement | undefined;
  const onContextMenu = (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    props.actions.menu({ path: path(), folder, x: event.clientX, y: event.clientY, from: name });
  };
  // A row takes drops when it is a folder; a drop on a file's row goes to the folder holding it.
  const target = () => (folder ? path() : props.parent);
  const onDragStart = (event: DragEvent) => {
    if (props.actions.readOnly()) return event.preventDefault();
    event.dataTransfer?.setData(TREE_DRAG, path());
    event.dataTransfer?.setData("text/plain", path());
    if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
  };
  const onDragOver = (event: DragEvent) => {
    if (!dragKind(event) || props.actions.readOnly()) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.dataTransfer) event.dataTransfer.dropEffect = dragKind(event) === "row" ? "move" : "copy";
    props.setDropTarget(target());
  };
  const onDrop = (event: DragEvent) => {
    if (!dragKind(event)) return;
    event.preventDefault();
    event.stopPropagation();
    props.setDropTarget(undefined);
    void receiveDrop(event, target(), props.actions);
  };
  return (
    <li
      role="treeitem"
      aria-expanded={folder ? open() : undefined}
      data-path={path()}
      classList={{ "drop-target": folder && props.dropTarget() === path() }}
    >
      <div
        class="tree-row"
        classList={{ ignored: props.ignored() }}
        data-ignored={props.ignored() ? "" : undefined}
        title={props.ignored() ? "Ignored (.gitignore or .ignore): Find in files leaves it out" : undefined}
        style={{ "padding-left": `${props.depth * 1 + 0.5}em` }}
        draggable={!props.actions.readOnly()}
        onContextMenu={onContextMenu}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDrop={onDrop}
      >
        <Switch>
          <Match when={folder}>
            <button
              ref={name}
              type="button"
              class="tree-name folder"
              classList={{ open: open() }}
              onClick={() => props.actions.tree.toggle(path())}
            >
              {props.entry.name}
            </button>
          </Match>
          <Match when={!folder}>
            <button
              ref={name}
              type="button"
              class="tree-name file"
              classList={{ symlink: props.entry.type === "symlink" }}
              title={`Open ${path()}`}
              onClick={() => props.actions.open(path())}
            >
              {props.entry.name}
            </button>
            <button
              type="button"
              class="tree-action"
              onClick={download}
              aria-label={`Download ${props.entry.name}`}
              title={`Download ${props.entry.name}`}
            >
              ⤓
            </button>
          </Match>
        </Switch>
      </div>
      <Show when={open()}>
        <ul role="group">
          <Folder
            path={path()}
            runtime={props.runtime}
            version={props.version}
            depth={props.depth + 1}
            actions={props.actions}
            dropTarget={props.dropTarget}
            setDropTarget={props.setDropTarget}
          />
        </ul>
      </Show>
    </li>
  );
}
