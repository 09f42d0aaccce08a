import { basename, join } from "pathe";
import { createEffect, createResource, createSignal, For, Match, onCleanup, Show, Switch } from "solid-js";
import type { DirEntry, Runtime } from "../../runtime/types.js";
import { saveBytes } from "../download.js";

function sortEntries(entries: DirEntry[]): DirEntry[] {
  return [...entries].sort((a, b) => {
    const folder = Number(b.type === "directory") - Number(a.type === "directory");
    return folder !== 0 ? folder : a.name.localeCompare(b.name);
  });
}

/**
 * The workspace's files, folders opened on demand, a file opened (in the editor) by `onOpen`. It re-reads what is open whenever the runtime
 * says files may have changed (a write, or any command), a little after the last change.
 * `runtime` must be reactive (a signal).
 */
export function FileTree(props: { runtime: () => Runtime; onError: (message: string) => void; onOpen: (path: string) => void }) {
  const [version, setVersion] = createSignal(0);
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

  return (
    <nav class="file-tree" aria-label="Workspace files">
      <ul role="tree" aria-label={current().root} onKeyDown={moveInTree}>
        <Folder path={current().root} runtime={current} version={version} depth={0} onError={props.onError} onOpen={props.onOpen} />
      </ul>
    </nav>
  );
}

/**
 * Arrow keys as in a file explorer (Tab still visits every entry): up and down move between the
 * visible names, right opens a folder, left closes it or goes to the folder holding the entry.
 */
function moveInTree(event: KeyboardEvent) {
  const tree = event.currentTarget as HTMLElement;
  const current = (event.target as HTMLElement).closest<HTMLElement>("button.tree-name");
  if (!current) return;
  const names = [...tree.querySelectorAll<HTMLElement>("button.tree-name")];
  const index = names.indexOf(current);
  const item = current.closest<HTMLElement>('[role="treeitem"]');
  const expanded = item?.getAttribute("aria-expanded");
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
      else next = item?.parentElement?.closest<HTMLElement>('[role="treeitem"]')?.querySelector<HTMLElement>("button.tree-name") ?? undefined;
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
  onError: (message: string) => void;
  onOpen: (path: string) => void;
}) {
  const [entries] = createResource(
    () => [props.path, props.version(), props.runtime()] as const,
    async ([path, , runtime]) => sortEntries(await runtime.fs.readdir(path)),
  );
  return (
    <Show when={!entries.error} fallback={<li class="tree-error" role="treeitem" aria-disabled="true">Cannot list {basename(props.path)}: {String(entries.error)}</li>}>
      <Show when={entries.latest?.length !== 0} fallback={<li class="tree-empty" role="treeitem" aria-disabled="true" style={{ "padding-left": `${props.depth + 1}em` }}>(empty)</li>}>
        <For each={entries.latest ?? []}>
          {(entry) => <Entry entry={entry} parent={props.path} runtime={props.runtime} version={props.version} depth={props.depth} onError={props.onError} onOpen={props.onOpen} />}
        </For>
      </Show>
    </Show>
  );
}

function Entry(props: {
  entry: DirEntry;
  parent: string;
  runtime: () => Runtime;
  version: () => number;
  depth: number;
  onError: (message: string) => void;
  onOpen: (path: string) => void;
}) {
  const [open, setOpen] = createSignal(false);
  const path = () => join(props.parent, props.entry.name);
  const download = async () => {
    try {
      saveBytes(await props.runtime().fs.readFile(path()), props.entry.name);
    } catch (error) {
      props.onError(`Could not download ${props.entry.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <li role="treeitem" aria-expanded={props.entry.type === "directory" ? open() : undefined} data-path={path()}>
      <div class="tree-row" style={{ "padding-left": `${props.depth * 1 + 0.5}em` }}>
        <Switch>
          <Match when={props.entry.type === "directory"}>
            <button type="button" class="tree-name folder" classList={{ open: open() }} onClick={() => setOpen(!open())}>
              {props.entry.name}
            </button>
          </Match>
          <Match when={props.entry.type !== "directory"}>
            <button
              type="button"
              class="tree-name file"
              classList={{ symlink: props.entry.type === "symlink" }}
              title={`Open ${path()}`}
              onClick={() => props.onOpen(path())}
            >
              {props.entry.name}
            </button>
            <button type="button" class="tree-action" onClick={download} aria-label={`Download ${props.entry.name}`} title={`Download ${props.entry.name}`}>
              ⤓
            </button>
          </Match>
        </Switch>
      </div>
      <Show when={open()}>
        <ul role="group">
          <Folder path={path()} runtime={props.runtime} version={props.version} depth={props.depth + 1} onError={props.onError} onOpen={props.onOpen} />
        </ul>
      </Show>
    </li>
  );
}
