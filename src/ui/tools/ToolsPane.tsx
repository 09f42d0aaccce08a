import { createEffect, createMemo, createResource, createSignal, For, lazy, on, onCleanup, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import type { BrowserSessionStore } from "../../session/indexeddb-session-store.js";
import type { PageSessions } from "../../session/page-sessions.js";
import type { PageTools, PermissionReply } from "../../session/page-tools.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import { trackCallVersions, type CallVersions } from "./call-versions.js";
import { PermissionPrompt } from "./PermissionPrompt.js";
import { ReplayBar } from "./ReplayBar.js";
import { SessionBar } from "./SessionBar.js";
import { forgetTrust, isTrusted, rememberTrust } from "./trust.js";
import { TrustNotice } from "./TrustNotice.js";

// The tools (zod, the bash parser, diffing) load after the first paint, not with it: they doubled the
// initial bundle when imported eagerly.
const sessionModules = () => Promise.all([import("../../session/page-sessions.js"), import("../../session/indexeddb-session-store.js")]);
// Cards (and the virtualiser in them) are needed only once there is a session to show.
const CallCard = lazy(() => import("./CallCard.js").then((module) => ({ default: module.CallCard })));
const ToolPalette = lazy(() => import("./ToolPalette.js").then((module) => ({ default: module.ToolPalette })));
const SettingsDialog = lazy(() => import("./SettingsDialog.js").then((module) => ({ default: module.SettingsDialog })));

export interface SessionsPlace {
  /** The workspace's name: its sessions are kept apart from every other workspace's. */
  workspace: string;
  /** The workspace lives in memory only, so its sessions do too. */
  memoryOnly: boolean;
}

/**
 * The Tools pane: the current session's calls as cards, its pending permission prompts as a queue,
 * the session picker, replay of a calls file, and the palette (Ctrl+K) that starts calls. A new
 * runtime (WebContainer booted) reopens the current session on it.
 */
export function ToolsPane(props: { runtime: () => Runtime; readOnly: boolean; place: SessionsPlace }) {
  let store: Promise<BrowserSessionStore> | undefined;
  let previous: PageSessions | undefined;
  // Decided by the user; kept here too, since a browser without storage cannot remember it.
  let trusted = isTrusted(props.place.workspace);
  const openSessions = async (runtime: Runtime): Promise<PageSessions> => {
    const [{ PageSessions }, { openBrowserSessionStore }] = await sessionModules();
    store ??= openBrowserSessionStore(props.place.workspace, { memoryOnly: props.place.memoryOnly });
    const opened = await store;
    // A new runtime (WebContainer booted): the calls on the old one end first, so the session reopened
    // on the new one reads their real end, and the two never save the same session.
    await previous?.close();
    setStoreNotice(opened.notice);
    previous = await PageSessions.open(runtime, opened.store, { remember: !props.readOnly, trusted: () => trusted });
    return previous;
  };
  const [storeNotice, setStoreNotice] = createSignal<string | undefined>();
  const [sessions] = createResource(props.runtime, openSessions);
  const [listVersion, setListVersion] = createSignal(0, { equals: false });
  const [moving, setMoving] = createSignal(false);
  const [sessionError, setSessionError] = createSignal<string | undefined>();
  // A memo, so a change to the list that leaves the current session in place re-tracks nothing.
  const tools = createMemo((): PageTools | undefined => (listVersion(), sessions()?.current));
  /** The current session was reopened (trust, saved rules): the list takes the new page in its place. */
  const replaced = (next: PageTools) => sessions()?.replaceCurrent(next);
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
    on(sessions, (all) => {
      if (!all) return;
      const off = all.onChange(() => setListVersion(0));
      onCleanup(off);
    }),
  );
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
  const setTrust = (value: boolean) => {
    const page = tools();
    if (!page) return;
    setTrusting(true);
    const remembered = value ? rememberTrust(props.place.workspace) : (forgetTrust(props.place.workspace), true);
    page
      .reopen({ trusted: value })
      .then((next) => {
        trusted = value;
        replaced(next);
        setNote(remembered ? undefined : { text: "Trusted for this page only: this browser keeps no storage, so a reload will ask again." });
      }, (error: unknown) => setNote({ text: `Could not ${value ? "trust" : "stop trusting"} the workspace: ${error instanceof Error ? error.message : String(error)}`, error: true }))
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

  /** A move between sessions; the palette waits for it, so a call never lands in the session being left. */
  const move = async (action: (all: PageSessions) => Promise<unknown>) => {
    const all = sessions();
    if (!all) return;
    setMoving(true);
    setSessionError(undefined);
    try {
      await action(all);
    } catch (error) {
      setSessionError(error instanceof Error ? error.message : String(error));
    } finally {
      setMoving(false);
      setListVersion(0);
    }
  };
  const summaries = () => {
    listVersion();
    version();
    return sessions()?.list() ?? [];
  };

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
        <button type="button" class="button" onClick={openSettings} disabled={!tools()} aria-haspopup="dialog" data-testid="open-settings">
          Settings
        </button>
        <button type="button" class="button primary" onClick={openPalette} disabled={!entries() || moving()} aria-keyshortcuts="Control+K" data-testid="open-palette">
          Run a tool… <kbd>Ctrl+K</kbd>
        </button>
      </header>
      <div class="tools-bars">
        <SessionBar
          sessions={summaries}
          currentID={() => tools()?.record.id}
          busy={() => moving() || !sessions()}
          onSwitch={(id) => void move((all) => all.switchTo(id))}
          onNew={() => void move((all) => all.create())}
          onRename={(id, title) => void move((all) => all.rename(id, title))}
          onDelete={(id) => void move((all) => all.delete(id))}
        />
        <ReplayBar target={tools} disabled={() => moving() || !entries()} />
      </div>
      <Show when={sessionError()}>
        <p class="banner error" role="alert" data-testid="session-error">
          {sessionError()}
        </p>
      </Show>
      <Show when={storeNotice()}>
        <p class="tools-note" data-testid="session-store-notice">
          {storeNotice()}
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
          <SettingsDialog page={page()} agent={page().session.agent.name} onReopened={replaced} onTrust={trust} onUntrust={() => setTrust(false)} trusting={trusting()} onClose={closeSettings} />
        )}
      </Show>
    </section>
  );
}
