import { createEffect, createMemo, createResource, createSignal, For, lazy, on, onCleanup, onMount, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import type { RuntimeStatus } from "../../workspace/workspace.js";
import type { PageTools } from "../../page/page-tools.js";
import { trackCallVersions, type CallVersions } from "./call-versions.js";
import { PermissionPrompt } from "./PermissionPrompt.js";
import { ReplayBar } from "./ReplayBar.js";
import { bindScrollMemory } from "./scroll-memory.js";
import { SessionBar } from "./SessionBar.js";
import { shortcutOf, ToolsController, type SessionsPlace, type ToolsState } from "./tools-controller.js";
import { McpServers } from "./McpServers.js";
import { BackgroundJobs } from "./BackgroundJobs.js";
import { TrustNotice } from "./TrustNotice.js";
import { isSharedWorkspace, sharedTrustQuestion } from "./trust-offer.js";
import { trustContents } from "../../page/trust-contents.js";

export type { SessionsPlace } from "./tools-controller.js";

// Cards (and the virtualiser in them) are needed only once there is a session to show.
const CallCard = lazy(() => import("./CallCard.js").then((module) => ({ default: module.CallCard })));
const ToolPalette = lazy(() => import("./ToolPalette.js").then((module) => ({ default: module.ToolPalette })));
const SettingsDialog = lazy(() => import("./SettingsDialog.js").then((module) => ({ default: module.SettingsDialog })));

/**
 * The Tools pane: the current session's calls as cards, its pending permission prompts as a queue,
 * the session picker, replay of a calls file, and the palette (Ctrl+K) that starts calls. What it does
 * lives in ToolsController; this is how it looks and which keys open what. A new runtime (WebContainer
 * booted) reopens the current session on it.
 */
export function ToolsPane(props: {
  runtime: () => Runtime;
  readOnly: boolean;
  place: SessionsPlace;
  controller?: ToolsController;
  /** False when the page shows the session picker above this pane (shared with the chat). */
  sessionBar?: boolean;
  /** The palette opened or a call was started from it (the page brings this pane forward). */
  onRun?: () => void;
  /** Whether the pane is on screen; hidden behind another tab it keeps no cards (a long session's would hold megabytes). */
  visible?: () => boolean;
  /** The runtime's status, for Settings → Runtime. */
  runtimeStatus?: () => RuntimeStatus;
}) {
  // App passes its own when the chat shares the sessions and prompts; alone, the pane makes one.
  const controller = props.controller ?? new ToolsController({ place: props.place, readOnly: props.readOnly });
  const [state, setState] = createSignal<ToolsState>(controller.state(), { equals: false });
  onCleanup(controller.subscribe(() => setState(controller.state())));
  if (!props.controller) onCleanup(() => controller.dispose());
  const [sessions] = createResource(props.runtime, (runtime) => controller.open(runtime));
  // A memo, so a change to the list that leaves the current session in place re-tracks nothing.
  const tools = createMemo((): PageTools | undefined => (state(), controller.page()));
  const moving = () => state().moving;
  const note = () => state().note;
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const [version, setVersion] = createSignal(0, { equals: false });
  const [now, setNow] = createSignal(Date.now());
  const [paletteOpen, setPaletteOpen] = createSignal(false);
  const [entries, { refetch: refetchEntries }] = createResource(tools, (page) => page.tools());
  // MCP servers add and remove tools while the session runs: the palette lists what is there now.
  createEffect(on(tools, (page) => page && onCleanup(page.onMcpChange(() => void refetchEntries()))));
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
    if (moving()) return;
    opener = document.activeElement as HTMLElement | null;
    props.onRun?.();
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
  // Not offered in an embed; a workspace from a share link asks a second time, naming what trust changes.
  const trust = controller.trustOffered()
    ? () => {
        const name = props.place.workspace;
        const current = controller.page();
        const contents = current ? trustContents(current) : [];
        if (isSharedWorkspace(name) && !window.confirm(sharedTrustQuestion(name, contents))) return;
        void controller.setTrust(true);
      }
    : undefined;
  const onKey = (event: KeyboardEvent) => {
    const action = shortcutOf(event, { settings: settingsOpen(), palette: paletteOpen() });
    if (!action) return;
    event.preventDefault();
    if (action === "close-settings") closeSettings();
    else if (action === "close-palette") closePalette();
    else openPalette();
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
    tools();
    return controller.pending();
  };
  const summaries = () => {
    state();
    version();
    return sessions()?.list() ?? [];
  };

  // The list keeps its place across reloads (per session, for the life of the tab), and opens at the
  // newest call when it has no place yet.
  let transcript!: HTMLDivElement;
  const hasCalls = createMemo(() => views().length > 0);
  onMount(() => {
    let storage: Storage | undefined;
    try {
      storage = window.sessionStorage;
    } catch {
      storage = undefined;
    }
    const memory = bindScrollMemory(transcript, {
      key: () => {
        const id = tools()?.record.id;
        return id ? `workbench-calls-scroll:${props.place.workspace}:${id}` : undefined;
      },
      storage,
      active: () => props.visible?.() !== false,
    });
    onCleanup(memory.dispose);
    createEffect(
      on([() => tools()?.record.id, () => props.visible?.() !== false, hasCalls], ([id, visible, any]) => {
        if (id && visible && any) memory.restore();
      }),
    );
  });

  const run = (tool: string, args: Record<string, unknown>) => {
    setPaletteOpen(false);
    if (!controller.run(tool, args)) return;
    props.onRun?.();
    setVersion(0);
    queueMicrotask(() => document.querySelector<HTMLElement>(".call-card:last-of-type")?.scrollIntoView({ block: "nearest" }));
  };

  return (
    <section class="tools-pane" aria-label="Tools pane" data-testid="tools-pane">
      <header class="tools-head">
        <h2>Tools</h2>
        <button type="button" class="button" onClick={openSettings} disabled={!tools()} aria-haspopup="dialog" data-testid="open-settings">
          Settings
        </button>
        <button
          type="button"
          class="button primary"
          onClick={openPalette}
          disabled={!entries() || moving()}
          aria-keyshortcuts="Control+K"
          data-testid="open-palette"
        >
          Run a tool… <kbd>Ctrl+K</kbd>
        </button>
      </header>
      <div class="tools-bars">
        <Show when={props.sessionBar !== false}>
          <SessionBar
            sessions={summaries}
            currentID={() => tools()?.record.id}
            busy={() => moving() || !sessions()}
            onSwitch={(id) => void controller.switchTo(id)}
            onNew={() => void controller.create()}
            onRename={(id, title) => void controller.rename(id, title)}
            onDelete={(id) => void controller.delete(id)}
          />
        </Show>
        <ReplayBar target={tools} disabled={() => moving() || !entries()} />
      </div>
      <Show when={state().sessionError}>
        <p class="banner error" role="alert" data-testid="session-error">
          {state().sessionError}
        </p>
      </Show>
      <Show when={state().storeNotice}>
        <p class="tools-note" data-testid="session-store-notice">
          {state().storeNotice}
        </p>
      </Show>
      <Show when={props.readOnly}>
        <p class="tools-note">This tab is read-only: tools that write will fail.</p>
      </Show>
      <Show when={sessions.error || entries.error}>
        <p class="banner error" role="alert">
          The tool session could not start: {String((sessions.error ?? entries.error) as unknown)}
        </p>
      </Show>
      <Show when={tools()}>{(page) => <TrustNotice page={page()} onTrust={trust} trusting={state().trusting} />}</Show>
      <Show when={tools()} keyed>
        {(page) => <McpServers page={page} onTrust={trust} trusting={state().trusting} />}
      </Show>
      <Show when={tools()} keyed>
        {(page) => <BackgroundJobs page={page} />}
      </Show>
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
                input={controller.inputOf(request.tool?.callID)}
                call={controller.callOf(request.tool?.callID)}
                position={index() + 1}
                total={pending().length}
                onReply={(reply, message, saveToConfig) => void controller.answer(request, reply, message, saveToConfig)}
              />
            )}
          </For>
        </div>
      </Show>
      <div class="transcript" data-testid="transcript" aria-live="polite" ref={transcript}>
        <For
          each={props.visible?.() === false ? [] : views()}
          fallback={<p class="tools-empty">No calls yet. Press Ctrl+K (or the button above) to run a tool.</p>}
        >
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
          <SettingsDialog
            page={page()}
            agent={page().session.agent.name}
            onReopened={controller.replaced}
            onTrust={trust}
            onUntrust={() => void controller.setTrust(false)}
            {...(controller.trustOffered() ? { sharedListFor: props.place.workspace } : {})}
            trusting={state().trusting}
            runtime={props.runtime}
            {...(props.runtimeStatus ? { runtimeStatus: props.runtimeStatus } : {})}
            onClose={closeSettings}
          />
        )}
      </Show>
    </section>
  );
}
