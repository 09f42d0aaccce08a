import { basename } from "pathe";
import { createEffect, createSignal, Match, onCleanup, onMount, Show, Switch } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import { languageServiceFor } from "../../workspace/language-service.js";
import { currentMtime, openDocument, SaveConflict, saveDocument, type OpenedDocument } from "../../workspace/file-document.js";
import { saveBytes } from "../download.js";
import type { CodeEditor } from "./code-editor.js";
import type { RevealTarget } from "./open-files.js";
import { errorMessage } from "../../base/error-message.js";
import { FileHistory } from "../../page/file-history.js";
import { pageCheckpointsOf } from "../../page/workspace-checkpoints.js";
import type { Checkpoints } from "../../workspace/checkpoints/checkpoints.js";
import { FileHistoryPanel } from "./FileHistoryPanel.js";

type Unopenable = Exclude<OpenedDocument, { kind: "text" }>;
type View = { state: "loading" } | { state: "failed"; message: string } | { state: "unopenable"; doc: Unopenable } | { state: "text" };

type Notice = { kind: "changed" } | { kind: "deleted" } | { kind: "reloaded" } | { kind: "saved" } | { kind: "error"; message: string };

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const messageOf = (error: unknown) => errorMessage(error);

/**
 * One file open for editing: CodeMirror (loaded on first use) with Save (button or Ctrl+S), a dirty
 * marker, and what happened on disk meanwhile: a clean editor reloads when a tool or the terminal
 * changes the file; a dirty one says so and lets the user choose. Binary, huge and missing files get
 * a notice instead of an editor.
 */
export function FileEditor(props: {
  runtime: () => Runtime;
  path: string;
  root: string;
  readOnly: boolean;
  active: () => boolean;
  dirty: () => boolean;
  onDirty: (dirty: boolean) => void;
  onClose: () => void;
  /** A place to scroll to and highlight (a Find in files hit), shown once the text is loaded. */
  reveal?: () => RevealTarget | undefined;
}) {
  let host!: HTMLDivElement;
  let editor: CodeEditor | undefined;
  /** The file's mtime when it was loaded or last saved: anything else on disk is someone else's change. */
  let baseMtime: number | undefined;
  let saving = false;
  /** A change arrived while saving: look again once the save is done. */
  let recheck = false;
  let disposed = false;
  const [view, setView] = createSignal<View>({ state: "loading" });
  const [notice, setNotice] = createSignal<Notice | undefined>();
  const unopenable = () => {
    const current = view();
    return current.state === "unopenable" ? current.doc : undefined;
  };
  const failure = () => {
    const current = view();
    return current.state === "failed" ? current : undefined;
  };
  const [checkpoints, setCheckpoints] = createSignal<Checkpoints>();
  const [historyShown, setHistoryShown] = createSignal(false);
  void pageCheckpointsOf(props.runtime())?.then(setCheckpoints, () => undefined);
  const name = basename(props.path);
  const shownPath = props.path.startsWith(`${props.root}/`) ? props.path.slice(props.root.length + 1) : props.path;

  async function load(): Promise<void> {
    const doc = await openDocument(props.runtime(), props.path);
    if (disposed) return;
    if (doc.kind !== "text") {
      editor?.destroy();
      editor = undefined;
      setView({ state: "unopenable", doc });
      return;
    }
    baseMtime = doc.mtimeMs;
    if (editor) {
      editor.reset(doc.text, doc.lineSeparator);
      return;
    }
    const { createCodeEditor } = await import("./code-editor.js");
    if (disposed) return;
    setView({ state: "text" });
    editor = createCodeEditor(host, {
      path: props.path,
      text: doc.text,
      lineSeparator: doc.lineSeparator,
      readOnly: props.readOnly,
      label: `Contents of ${name}`,
      onDirty: (dirty) => {
        props.onDirty(dirty);
        // "Saved" or "Reloaded" no longer describe the text once it is edited again.
        const kind = notice()?.kind;
        if (dirty && (kind === "saved" || kind === "reloaded")) setNotice(undefined);
      },
    });
    void editor.languageReady.then(() => host.setAttribute("data-language-ready", "true"));
    if (props.active()) editor.focus();
    showRevealed();
    showDiagnostics();
  }

  /** The language service's diagnostics of this file as squiggles, kept current as it reports them. */
  let stopDiagnostics: (() => void) | undefined;
  function showDiagnostics(): void {
    const service = languageServiceFor(props.runtime());
    if (!service?.covers(props.path) || stopDiagnostics) return;
    stopDiagnostics = service.onDiagnostics((path, list) => {
      if (path !== props.path || !editor) return;
      editor.showDiagnostics(list);
      host.setAttribute("data-diagnostics", String(list.length));
    });
    // A failing service leaves the editor as it is: squiggles are a help, never a reason to refuse a file.
    service.open(props.path).catch(() => undefined);
  }

  let revealedSeq = 0;
  /** Shows the last place asked for, once per request (a reload from disk does not jump back to it). */
  function showRevealed(): void {
    const target = props.reveal?.();
    if (!editor || !target || target.seq === revealedSeq) return;
    revealedSeq = target.seq;
    editor.reveal(target.line, target.from, target.to);
    if (props.active()) editor.focus();
  }
  createEffect(() => {
    props.reveal?.();
    showRevealed();
  });

  async function save(force = false): Promise<void> {
    if (!editor || saving || props.readOnly) return;
    saving = true;
    const text = editor.text();
    try {
      baseMtime = await saveDocument(props.runtime(), props.path, text, force ? {} : { expectedMtimeMs: baseMtime });
      if (editor.text() === text) editor.markClean();
      setNotice({ kind: "saved" });
    } catch (error) {
      setNotice(
        error instanceof SaveConflict ? { kind: error.reason } : { kind: "error", message: `Could not save ${name}: ${messageOf(error)}` },
      );
    } finally {
      saving = false;
      if (recheck) {
        recheck = false;
        void check();
      }
    }
  }

  /** Compares the file on disk with what the editor holds, after something may have changed it. */
  async function check(): Promise<void> {
    if (saving) return void (recheck = true);
    if (disposed) return;
    // A file that could not be opened (missing, binary, too large) is looked at afresh.
    if (!editor) return void (unopenable() && (await reload()));
    const mtime = await currentMtime(props.runtime(), props.path).catch(() => undefined);
    if (mtime === undefined) return void setNotice({ kind: "deleted" });
    if (mtime === baseMtime) {
      if (notice()?.kind === "deleted") setNotice(undefined);
      return;
    }
    if (props.dirty()) return void setNotice({ kind: "changed" });
    await reload();
    if (editor) setNotice({ kind: "reloaded" });
  }

  const reload = async () => {
    setNotice(undefined);
    await load().catch((error: unknown) => setView({ state: "failed", message: messageOf(error) }));
  };

  onMount(() => {
    load().catch((error: unknown) => setView({ state: "failed", message: `Could not open ${shownPath}: ${messageOf(error)}` }));
  });

  let timer: ReturnType<typeof setTimeout> | undefined;
  createEffect(() => {
    const off = props.runtime().onChange((paths) => {
      if (paths !== "unknown" && !paths.includes(props.path)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void check(), 100);
    });
    onCleanup(off);
  });
  onCleanup(() => {
    disposed = true;
    stopDiagnostics?.();
    clearTimeout(timer);
    editor?.destroy();
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      void save();
    }
  };
  const download = async () => {
    try {
      saveBytes(await props.runtime().fs.readFile(props.path), name);
    } catch (error) {
      setNotice({ kind: "error", message: `Could not download ${name}: ${messageOf(error)}` });
    }
  };

  return (
    <div class="file-editor" data-testid="file-editor" data-path={props.path} onKeyDown={onKeyDown}>
      <div class="editor-bar">
        <span class="editor-path" title={props.path}>
          {shownPath}
        </span>
        <Show when={props.dirty()}>
          <span class="dirty-marker" data-testid="dirty-marker">
            ● unsaved
          </span>
        </Show>
        <Show when={view().state === "text" && !props.readOnly}>
          <button
            type="button"
            class="button primary"
            onClick={() => void save()}
            disabled={!props.dirty()}
            aria-keyshortcuts="Control+S"
            data-testid="save-file"
          >
            Save <kbd>Ctrl+S</kbd>
          </button>
        </Show>
        <Show when={checkpoints()}>
          <button
            type="button"
            class="button"
            aria-pressed={historyShown()}
            onClick={() => setHistoryShown(!historyShown())}
            data-testid="file-history-toggle"
          >
            History
          </button>
        </Show>
        <button type="button" class="button" onClick={() => props.onClose()} aria-label={`Close ${name}`}>
          Close
        </button>
      </div>
      <Show when={notice()}>
        {(current) => (
          <div
            class={`editor-notice ${current().kind === "reloaded" || current().kind === "saved" ? "info" : "warn"}`}
            role="status"
            data-testid="editor-notice"
            data-kind={current().kind}
          >
            <Switch>
              <Match when={current().kind === "changed"}>
                <span>{shownPath} changed on disk while you were editing it.</span>
                <button type="button" class="button" onClick={() => void reload()}>
                  Reload (discard mine)
                </button>
                <button type="button" class="button" onClick={() => void save(true)}>
                  Overwrite with mine
                </button>
              </Match>
              <Match when={current().kind === "deleted"}>
                <span>{shownPath} was deleted on disk.</span>
                <Show when={!props.readOnly}>
                  <button type="button" class="button" onClick={() => void save(true)}>
                    Save to create it again
                  </button>
                </Show>
              </Match>
              <Match when={current().kind === "reloaded"}>
                <span>Reloaded: {shownPath} changed on disk.</span>
              </Match>
              <Match when={current().kind === "saved"}>
                <span>Saved.</span>
              </Match>
              <Match when={current().kind === "error"}>
                <span>{(current() as { message: string }).message}</span>
              </Match>
            </Switch>
            <button type="button" class="dismiss" aria-label="Dismiss" onClick={() => setNotice(undefined)}>
              ×
            </button>
          </div>
        )}
      </Show>
      <Show when={historyShown() && checkpoints()}>
        {(open) => (
          <FileHistoryPanel
            history={new FileHistory(props.runtime(), open(), props.path)}
            head={() => open().head()}
            dirty={props.dirty}
            readOnly={props.readOnly}
            onClose={() => setHistoryShown(false)}
          />
        )}
      </Show>
      <Switch>
        <Match when={view().state === "loading"}>
          <p class="editor-message">Opening {shownPath}…</p>
        </Match>
        <Match when={failure()}>{(failed) => <p class="editor-message error">{failed().message}</p>}</Match>
        <Match when={unopenable()}>
          {(other) => (
            <div class="editor-message" data-testid="editor-message" data-kind={other().kind}>
              <Switch>
                <Match when={other().kind === "binary" && (other() as { size: number; reason: string })}>
                  {(binary) => (
                    <p>
                      {name} is not shown: {binary().reason} ({megabytes(binary().size)}). Download it to open it elsewhere.
                    </p>
                  )}
                </Match>
                <Match when={other().kind === "too-large" && (other() as { size: number; limit: number })}>
                  {(large) => (
                    <p>
                      {name} is {megabytes(large().size)}, more than the editor opens ({megabytes(large().limit)}). Download it, or look at
                      parts of it with the read tool or the terminal (head, tail, grep).
                    </p>
                  )}
                </Match>
                <Match when={other().kind === "missing"}>
                  <p>{shownPath} does not exist (any more): it was deleted or renamed.</p>
                </Match>
                <Match when={other().kind === "not-a-file"}>
                  <p>{shownPath} is a folder, not a file.</p>
                </Match>
              </Switch>
              <div class="editor-message-actions">
                <Show when={other().kind === "binary" || other().kind === "too-large"}>
                  <button type="button" class="button" onClick={() => void download()}>
                    Download {name}
                  </button>
                </Show>
                <button type="button" class="button" onClick={() => void reload()}>
                  Try again
                </button>
              </div>
            </div>
          )}
        </Match>
      </Switch>
      <div class="editor-host" ref={host} classList={{ hidden: view().state !== "text" }} data-testid="editor-host" />
    </div>
  );
}
