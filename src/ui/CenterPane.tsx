import { basename, join } from "pathe";
import { createEffect, createSignal, For, lazy, on, onCleanup, type JSX } from "solid-js";
import type { Runtime } from "../runtime/types.js";
import type { OpenFiles } from "./files/open-files.js";
import { previewFor } from "../workspace/preview/preview-host.js";
import { PreviewPane } from "./preview/PreviewPane.js";

// The editor (and CodeMirror behind it) loads when the first file opens, not with the page.
const FileEditor = lazy(() => import("./files/FileEditor.js").then((module) => ({ default: module.FileEditor })));

const tabId = (index: number | "preview") => `center-tab-${index}`;
const panelId = (index: number | "preview") => `center-panel-${index}`;
/** The Preview tab's place among the tabs (file paths are absolute, so no path is this). */
const PREVIEW = "preview:";

/**
 * The middle column: the terminal and the open files as tabs (arrow keys move between tabs, as in
 * any tab list). Hidden panels stay mounted, so the terminal keeps its screen and an editor its text.
 */
export function CenterPane(props: {
  files: OpenFiles;
  runtime: () => Runtime;
  readOnly: boolean;
  terminal: JSX.Element;
  /** Set from outside (an embed's view): the Preview tab in front or not. */
  previewShown?: () => boolean;
  /** A page to open the Preview on at start (`?preview=` in the address, a share that opens on the preview). */
  openPreview?: string;
}) {
  const files = props.files;
  const [previewShown, setPreviewShown] = createSignal(false);
  const current = () => (previewShown() ? PREVIEW : files.active());
  const tabs = () => [undefined, PREVIEW, ...files.files().map((file) => file.path)];
  const select = (tab: string | undefined) => {
    setPreviewShown(tab === PREVIEW);
    if (tab !== PREVIEW) files.show(tab);
  };
  if (props.previewShown) createEffect(on(props.previewShown, (shown) => setPreviewShown(shown)));
  if (props.openPreview !== undefined) setPreviewShown(true);
  // A file opened elsewhere (the tree, a search hit) comes forward over the preview.
  createEffect(on(files.active, () => setPreviewShown(false), { defer: true }));
  // The preview tool's call brings the preview forward, so the person sees what the agent looks at.
  createEffect(() => onCleanup(previewFor(props.runtime()).onReveal(() => setPreviewShown(true))));
  let list!: HTMLDivElement;

  const closeFile = (path: string) => {
    const file = files.files().find((f) => f.path === path);
    if (file?.dirty() && !window.confirm(`${basename(path)} has unsaved changes. Close it and lose them?`)) return;
    files.close(path);
  };
  const onTabKey = (event: KeyboardEvent) => {
    const all = tabs();
    const index = all.indexOf(current());
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % all.length
        : event.key === "ArrowLeft"
          ? (index - 1 + all.length) % all.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? all.length - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    select(all[next]);
    list.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };

  return (
    <section class="center-pane" aria-label="Terminal and files">
      <div class="center-tabs" role="tablist" aria-label="Terminal and open files" ref={list} onKeyDown={onTabKey}>
        <button
          type="button"
          role="tab"
          id={tabId(0)}
          class="center-tab"
          aria-selected={current() === undefined}
          aria-controls={panelId(0)}
          tabIndex={current() === undefined ? 0 : -1}
          onClick={() => {
            setPreviewShown(false);
            files.showTerminal();
          }}
          data-testid="tab-terminal"
        >
          Terminal
        </button>
        <button
          type="button"
          role="tab"
          id={tabId("preview")}
          class="center-tab"
          aria-selected={previewShown()}
          aria-controls={panelId("preview")}
          tabIndex={previewShown() ? 0 : -1}
          onClick={() => setPreviewShown(true)}
          data-testid="tab-preview"
        >
          Preview
        </button>
        <For each={files.files()}>
          {(file, index) => (
            <button
              type="button"
              role="tab"
              id={tabId(index() + 1)}
              class="center-tab"
              classList={{ dirty: file.dirty() }}
              aria-selected={current() === file.path}
              aria-controls={panelId(index() + 1)}
              tabIndex={current() === file.path ? 0 : -1}
              title={file.path}
              onClick={() => select(file.path)}
              onAuxClick={(event) => event.button === 1 && closeFile(file.path)}
              data-testid="file-tab"
              data-path={file.path}
            >
              {basename(file.path)}
              {file.dirty() ? " ●" : ""}
            </button>
          )}
        </For>
      </div>
      <div class="center-panel terminal-pane" role="tabpanel" id={panelId(0)} aria-labelledby={tabId(0)} hidden={current() !== undefined}>
        {props.terminal}
      </div>
      <div class="center-panel" role="tabpanel" id={panelId("preview")} aria-labelledby={tabId("preview")} hidden={!previewShown()}>
        <PreviewPane
          runtime={props.runtime}
          visible={previewShown}
          initialPath={props.openPreview}
          onOpenSource={(path, line) => {
            setPreviewShown(false);
            files.open(join(props.runtime().root, path), { line, from: 0, to: 0 });
          }}
        />
      </div>
      <For each={files.files()}>
        {(file, index) => (
          <div
            class="center-panel"
            role="tabpanel"
            id={panelId(index() + 1)}
            aria-labelledby={tabId(index() + 1)}
            hidden={current() !== file.path}
          >
            <FileEditor
              runtime={props.runtime}
              path={file.path}
              root={props.runtime().root}
              readOnly={props.readOnly}
              active={() => files.active() === file.path}
              dirty={file.dirty}
              onDirty={file.setDirty}
              onClose={() => closeFile(file.path)}
              reveal={file.reveal}
            />
          </div>
        )}
      </For>
    </section>
  );
}
