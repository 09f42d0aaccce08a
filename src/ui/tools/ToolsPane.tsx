import { createEffect, createResource, createSignal, For, lazy, on, onCleanup, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import type { PageTools } from "../../session/page-tools.js";
import { trackCallVersions, type CallVersions } from "./call-versions.js";
import { CallCard } from "./CallCard.js";
import { PermissionPrompt } from "./PermissionPrompt.js";

// The tools (zod, the bash parser, diffing) load after the first paint, not with it: they doubled the
// initial bundle when imported eagerly.
const openPageTools = (runtime: Runtime): Promise<PageTools> => import("../../session/page-tools.js").then((module) => module.PageTools.open(runtime));
const ToolPalette = lazy(() => import("./ToolPalette.js").then((module) => ({ default: module.ToolPalette })));

/**
 * The Tools pane: the session's calls as cards, its pending permission prompts as a queue, and the
 * palette (Ctrl+K) that starts calls. A new runtime (WebContainer booted) gets a new session.
 */
export function ToolsPane(props: { runtime: () => Runtime; readOnly: boolean }) {
  const [tools, { refetch }] = createResource(props.runtime, openPageTools);
  const [version, setVersion] = createSignal(0, { equals: false });
  const [now, setNow] = createSignal(Date.now());
  const [paletteOpen, setPaletteOpen] = createSignal(false);
  const [entries] = createResource(tools, (page) => page.tools());
  let opener: HTMLElement | null = null;

  // `version` moves when calls are added or prompts come and go; each card follows its own call's version.
  const [callVersions, setCallVersions] = createSignal<CallVersions>();
  createEffect(
    on(tools, (page) => {
      if (!page) return;
      const versions = trackCallVersions(page, () => setVersion(0));
      setCallVersions(versions);
      onCleanup(versions.dispose);
    }),
  );
  // The elapsed time of running calls moves on its own.
  const clock = setInterval(() => {
    const page = tools();
    if (page?.calls.some((call) => call.status === "pending" || call.status === "running")) setNow(Date.now());
  }, 250);
  onCleanup(() => clearInterval(clock));

  const openPalette = () => {
    opener = document.activeElement as HTMLElement | null;
    setPaletteOpen(true);
  };
  const closePalette = () => {
    setPaletteOpen(false);
    opener?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Escape" && paletteOpen()) {
      event.preventDefault();
      closePalette();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
      event.preventDefault();
      if (paletteOpen()) closePalette();
      else openPalette();
    }
  };
  // Capture phase: the terminal would otherwise take Ctrl+K for itself.
  window.addEventListener("keydown", onKey, true);
  onCleanup(() => window.removeEventListener("keydown", onKey, true));

  const views = () => {
    version();
    const page = tools();
    // The runner's records are stable objects, so each card is made once and follows its call.
    return page ? [...page.calls] : [];
  };
  const pending = () => {
    version();
    return tools()?.pending() ?? [];
  };
  const inputOf = (callID: string | undefined) => tools()?.calls.find((call) => call.id === callID)?.input;

  const run = (tool: string, args: Record<string, unknown>) => {
    const page = tools();
    if (!page) return;
    setPaletteOpen(false);
    page.start(tool, args);
    setVersion(0);
    queueMicrotask(() => document.querySelector<HTMLElement>(".call-card:last-of-type")?.scrollIntoView({ block: "nearest" }));
  };

  return (
    <section class="tools-pane" aria-label="Tools pane" data-testid="tools-pane">
      <header class="tools-head">
        <h2>Tools</h2>
        <button type="button" class="button" onClick={() => void refetch()} title="Start a fresh session (reads opencode.json again; approvals are forgotten)">
          New session
        </button>
        <button type="button" class="button primary" onClick={openPalette} disabled={!entries()} aria-keyshortcuts="Control+K" data-testid="open-palette">
          Run a tool… <kbd>Ctrl+K</kbd>
        </button>
      </header>
      <Show when={props.readOnly}>
        <p class="tools-note">This tab is read-only: tools that write will fail.</p>
      </Show>
      <Show when={tools.error || entries.error}>
        <p class="banner error" role="alert">
          The tool session could not start: {String((tools.error ?? entries.error) as unknown)}
        </p>
      </Show>
      <Show when={pending().length > 0}>
        <div class="prompt-queue-list" aria-label="Pending permission prompts" data-testid="prompt-queue">
          <For each={pending()}>
            {(request, index) => (
              <PermissionPrompt
                request={request}
                input={inputOf(request.tool?.callID)}
                position={index() + 1}
                total={pending().length}
                onReply={(reply, message) => tools()?.reply(request.id, reply, message)}
              />
            )}
          </For>
        </div>
      </Show>
      <div class="transcript" data-testid="transcript" aria-live="polite">
        <For each={views()} fallback={<p class="tools-empty">No calls yet. Press Ctrl+K (or the button above) to run a tool.</p>}>
          {(call) => (
            <CallCard
              call={call}
              aborted={() => (callVersions()?.of(call.id)(), tools()?.wasAborted(call.id) ?? false)}
              version={() => callVersions()?.of(call.id)() ?? 0}
              now={now}
              onAbort={(id) => tools()?.abort(id)}
              readSaved={(path) => tools()!.readSavedOutput(path)}
            />
          )}
        </For>
      </div>
      <Show when={paletteOpen() && entries()}>
        <ToolPalette tools={entries()!} onRun={run} onClose={closePalette} />
      </Show>
    </section>
  );
}
