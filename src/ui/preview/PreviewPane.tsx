import { createEffect, createMemo, createSignal, For, on, onCleanup, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import { type PreviewEntry, previewFor } from "../../workspace/preview/preview-host.js";

/**
 * The Preview tab: the workspace's web app in a sandboxed frame, an address bar (path, back, forward,
 * reload, open in a new tab) and, under it, what the app printed and threw, each line with its source.
 * Nothing is built until the tab is first shown (or the preview tool asks).
 */
export function PreviewPane(props: {
  runtime: () => Runtime;
  visible: () => boolean;
  /** The page to open first (the workspace's index.html when absent). */
  initialPath?: string;
  /** Opens a workspace file (relative path) at a line. */
  onOpenSource: (path: string, line: number) => void;
}) {
  const host = createMemo(() => previewFor(props.runtime()));
  const [version, setVersion] = createSignal(0);
  const [address, setAddress] = createSignal(props.initialPath ?? "/index.html");
  let frameBox!: HTMLDivElement;

  createEffect(() => {
    const current = host();
    current.attach(frameBox);
    const off = current.onUpdate(() => {
      setVersion((v) => v + 1);
      if (current.path !== undefined) setAddress(current.path);
    });
    setVersion((v) => v + 1);
    onCleanup(off);
  });
  // First shown (or shown over a new runtime): load the page asked for, unless the tool already loaded one.
  createEffect(
    on([props.visible, host], ([visible, current]) => {
      if (visible && current.path === undefined && current.phase === "idle") void current.navigate(address());
    }),
  );

  const state = () => {
    version();
    const current = host();
    return {
      phase: current.phase,
      failure: current.failure,
      entries: current.entries,
      canBack: current.canBack,
      canForward: current.canForward,
    };
  };
  const counts = () => {
    const entries = state().entries;
    return {
      errors: entries.filter((entry) => entry.type === "error" || entry.level === "error").length,
      warnings: entries.filter((entry) => entry.type === "console" && entry.level === "warn").length,
    };
  };

  const go = (event: SubmitEvent) => {
    event.preventDefault();
    void host().navigate(address());
  };

  const entryText = (entry: PreviewEntry) =>
    entry.type === "error"
      ? `${entry.kind === "rejection" ? "Unhandled rejection: " : entry.kind === "build" ? "Build error: " : ""}${entry.message}`
      : entry.text;

  return (
    <div class="preview-pane" data-testid="preview-pane" data-phase={state().phase}>
      <form class="preview-bar" onSubmit={go}>
        <button
          type="button"
          class="icon-button"
          aria-label="Back"
          title="Back"
          disabled={!state().canBack}
          onClick={() => void host().back()}
          data-testid="preview-back"
        >
          ←
        </button>
        <button
          type="button"
          class="icon-button"
          aria-label="Forward"
          title="Forward"
          disabled={!state().canForward}
          onClick={() => void host().forward()}
          data-testid="preview-forward"
        >
          →
        </button>
        <button
          type="button"
          class="icon-button"
          aria-label="Reload"
          title="Reload"
          onClick={() => void host().reload()}
          data-testid="preview-reload"
        >
          ⟳
        </button>
        <input
          class="preview-address"
          aria-label="Page to preview (a path in the workspace)"
          value={address()}
          onInput={(event) => setAddress(event.currentTarget.value)}
          spellcheck={false}
          data-testid="preview-address"
        />
        <button
          type="button"
          class="icon-button"
          aria-label="Open in a new tab"
          title="Open in a new tab"
          disabled={state().phase !== "running"}
          onClick={() => host().openInNewTab()}
          data-testid="preview-open-tab"
        >
          ↗
        </button>
      </form>
      <div class="preview-frame-box">
        {/* The host puts its iframe here; Solid renders nothing in this box, so it never moves the frame (which would reload it). */}
        <div class="preview-frame-slot" ref={frameBox} />
        <Show when={state().phase === "failed"}>
          <p class="preview-failure" role="alert" data-testid="preview-failure">
            {state().failure}
          </p>
        </Show>
      </div>
      <section class="preview-console" aria-label="Preview console" data-testid="preview-console">
        <header class="preview-console-head">
          <span>Console</span>
          <span class="muted">
            {counts().errors} errors, {counts().warnings} warnings{state().phase === "building" ? " · building…" : ""}
          </span>
        </header>
        <ol class="preview-lines">
          <For each={state().entries}>
            {(entry) => (
              <li
                class={`preview-line ${entry.type === "error" ? "error" : entry.level}`}
                data-testid="preview-line"
                data-kind={entry.type === "error" ? entry.kind : entry.level}
              >
                <span class="preview-text">{entryText(entry)}</span>
                <Show when={entry.source}>
                  {(source) => (
                    <button
                      type="button"
                      class="preview-source"
                      onClick={() => props.onOpenSource(source().path, source().line)}
                      data-testid="preview-source"
                    >
                      {source().path}:{source().line}
                    </button>
                  )}
                </Show>
              </li>
            )}
          </For>
        </ol>
      </section>
    </div>
  );
}
