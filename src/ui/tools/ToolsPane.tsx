import { createEffect, createResource, createSignal, For, lazy, on, onCleanup, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import type { PageTools, PermissionReply } from "../../session/page-tools.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import { trackCallVersions, type CallVersions } from "./call-versions.js";
import { CallCard } from "./CallCard.js";
import { PermissionPrompt } from "./PermissionPrompt.js";
import { forgetTrust, isTrusted, rememberTrust } from "./trust.js";
import { TrustNotice } from "./TrustNotice.js";

// The tools (zod, the bash parser, diffing) load after the first paint, not with it: they doubled the
// initial bundle when imported eagerly.
const openPageTools = (runtime: Runtime, trusted: boolean): Promise<PageTools> =>
  import("../../session/page-tools.js").then((module) => module.PageTools.open(runtime, { trusted }));
const ToolPalette = lazy(() => import("./ToolPalette.js").then((module) => ({ default: module.ToolPalette })));
const SettingsDialog = lazy(() => import("./SettingsDialog.js").then((module) => ({ default: module.SettingsDialog })));

/**
 * The Tools pane: the session's calls as cards, its pending permission prompts as a queue, and the
 * palette (Ctrl+K) that starts calls. A new runtime (WebContainer booted) gets a new session.
 */
export function ToolsPane(props: { runtime: () => Runtime; readOnly: boolean; workspace?: string }) {
  const [tools, { refetch, mutate }] = createResource(props.runtime, (runtime) => openPageTools(runtime, isTrusted(props.workspace)));
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const [trusting, setTrusting] = createSignal(false);
  const [note, setNote] = createSignal<{ text: string; error?: boolean }>();
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
  const openSettings = () => {
    opener = document.activeElement as HTMLElement | null;
    setSettingsOpen(true);
  };
  const closeSettings = () => {
    setSettingsOpen(false);
    opener?.focus();
  };
  const setTrust = (trusted: boolean) => {
    const page = tools();
    if (!page) return;
    setTrusting(true);
    const remembered = trusted ? rememberTrust(props.workspace) : (forgetTrust(props.workspace), true);
    page
      .reopen({ trusted })
      .then((next) => {
        mutate(() => next);
        setNote(remembered ? undefined : { text: "Trusted for this page only: this browser keeps no storage, so a reload will ask again." });
      }, (error: unknown) => setNote({ text: `Could not ${trusted ? "trust" : "stop trusting"} the workspace: ${error instanceof Error ? error.message : String(error)}`, error: true }))
      .finally(() => setTrusting(false));
  };
  const trust = () => setTrust(true);
  const answer = (request: PermissionRequest, reply: PermissionReply, message?: string, saveToConfig?: boolean) => {
    const page = tools();
    if (!page?.reply(request.id, reply, message) || reply !== "always" || !saveToConfig) return;
    page.saveAlways(request).then(
      (path) => setNote({ text: `Saved ${request.permission}: ${request.always.join(", ")} to ${path}` }),
      (error: unknown) => setNote({ text: `Could not save to the workspace config: ${error instanceof Error ? error.message : String(error)}`, error: true }),
    );
  };
  const onKey = (event: KeyboardEvent) => {
    // Escape closes the settings even when focus fell out of them (a button that vanished, say).
    if (settingsOpen()) {
      if (event.key === "Escape") {
        event.preventDefault();
        closeSettings();
      }
      return;
    }
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
        <button type="button" class="button" onClick={openSettings} disabled={!tools()} aria-haspopup="dialog" data-testid="open-settings">
          Settings
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
      <Show when={tools()}>{(page) => <TrustNotice page={page()} onTrust={trust} trusting={trusting()} />}</Show>
      <Show when={note()}>
        <p class={`tools-note${note()!.error ? " error" : ""}`} role={note()!.error ? "alert" : "status"} data-testid="tools-status">
          {note()!.text}
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
                onReply={(reply, message, saveToConfig) => answer(request, reply, message, saveToConfig)}
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
      <Show when={settingsOpen() && tools()}>
        {(page) => (
          <SettingsDialog page={page()} agent={page().session.agent.name} onReopened={(next) => mutate(() => next)} onTrust={trust} onUntrust={() => setTrust(false)} trusting={trusting()} onClose={closeSettings} />
        )}
      </Show>
    </section>
  );
}
