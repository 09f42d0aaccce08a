/**
 * The right pane: the session picker and the session's file actions on top, then two tabs over the
 * same session, Chat (the default) and Tools (cards, palette, replay of calls). One ToolsController is
 * shared, so both tabs show the session picked here. The chat, its components and the AI SDK are
 * imported after the first paint: they are most of the page's code and a first visit must not wait.
 */
import { createEffect, createMemo, createResource, createSignal, lazy, on, onCleanup, Show, Suspense } from "solid-js";
import type { RuntimeStatus } from "../workspace/workspace.js";
import type { Runtime } from "../runtime/types.js";
import type { ChatView } from "../session/chat/chat-view.js";
import type { UndoableChat } from "../page/session-undo.js";
import type { PageTools } from "../page/page-tools.js";
import { KeyRouteAsks } from "./chat/KeyRouteAsks.js";
import type { PageChats } from "../page/page-chat.js";
import { saveBytes } from "./download.js";
import { SessionBar } from "./tools/SessionBar.js";
import { ToolsController, type SessionsPlace, type ToolsState } from "./tools/tools-controller.js";
import { ToolsPane } from "./tools/ToolsPane.js";
import { ConfigNote } from "./tools/ConfigNote.js";
import { SessionMenu } from "./SessionMenu.js";
import type { ShareActions } from "./share/share-actions.js";
import { ShareDialog } from "./share/ShareDialog.js";
import { errorMessage } from "../base/error-message.js";

const ChatPane = lazy(() => import("./chat/ChatPane.js").then((module) => ({ default: module.ChatPane })));

export type Tab = "chat" | "tools";

/** Something asked of this pane from elsewhere on the page (the first visit's welcome); `seq` tells repeats apart. */
export interface DeskRequest {
  kind: "add-key" | "demo" | "ask";
  seq: number;
}
const TAB_SETTING = "workbench-right-tab";

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

async function openChats(workspace: string): Promise<PageChats> {
  const { PageChats } = await import("../page/page-chat.js");
  return PageChats.open(browserStorage(), workspace);
}

/** A file name from a session title: letters, digits and dashes. */
function fileStem(title: string): string {
  return (
    title
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "session"
  );
}

/** Workspace paths under `prefix` for @ completion: one folder level at a time, folders ending with "/". */
async function listFiles(runtime: Runtime, prefix: string): Promise<string[]> {
  const slash = prefix.lastIndexOf("/");
  const dir = prefix.slice(0, slash + 1);
  const start = prefix.slice(slash + 1);
  const entries = await runtime.fs.readdir(`${runtime.root}/${dir}`.replace(/\/+$/, "") || "/").catch(() => []);
  return entries
    .filter((entry) => entry.name.startsWith(start) && entry.name !== ".git" && entry.name !== "node_modules")
    .map((entry) => `${dir}${entry.name}${entry.type === "directory" ? "/" : ""}`)
    .sort()
    .slice(0, 50);
}

/**
 * How an embed (src/ui/embed) uses this pane: its own controller and chats (memory only, no keys), the
 * tab chosen by the embed's view, and no session picker or session menu.
 */
export interface EmbeddedPane {
  controller: ToolsController;
  chats: () => Promise<PageChats>;
  tab: () => Tab;
}
/** Replay speeds offered for a shared session (the scripted provider's: 1 natural, 0 instant). */
const REPLAY_SPEEDS = [0.5, 1, 2, 4, 0];

export function RightPane(props: {
  runtime: () => Runtime;
  readOnly: boolean;
  place: SessionsPlace;
  report: (text: string, isError?: boolean) => void;
  request?: () => DeskRequest | undefined;
  embedded?: EmbeddedPane;
  /** Share links (the entry hands them in: the UI does not load src/embed). */
  share?: ShareActions;
  /** This workspace was opened from a share: offer to replay its session. */
  shared?: boolean;
  theme?: () => "light" | "dark";
  /** A provider key or local server was saved (the page's welcome moves on to the next step). */
  onKeySaved?: () => void;
  /** The Session menu's "Getting started": shows the page's welcome again. */
  onGettingStarted?: () => void;
  /** The runtime's status, for Settings → Runtime. */
  runtimeStatus?: () => RuntimeStatus;
}) {
  const embedded = props.embedded;
  const controller = embedded?.controller ?? new ToolsController({ place: props.place, readOnly: props.readOnly });
  if (!embedded) onCleanup(() => controller.dispose());
  const [state, setState] = createSignal<ToolsState>(controller.state(), { equals: false });
  onCleanup(controller.subscribe(() => setState(controller.state())));
  const page = createMemo((): PageTools | undefined => (state(), controller.page()));
  // The tab in front stays in front across reloads.
  const [ownTab, pickTab] = createSignal<Tab>(!embedded && browserStorage()?.getItem(TAB_SETTING) === "tools" ? "tools" : "chat");
  const tab = () => embedded?.tab() ?? ownTab();
  const setTab = (next: Tab) => {
    pickTab(next);
    if (embedded) return;
    try {
      browserStorage()?.setItem(TAB_SETTING, next);
    } catch {
      // Not remembered: the chat comes first after a reload.
    }
  };

  // The chat machinery loads once the page has painted, and once only.
  const [chats] = createResource(() =>
    new Promise<void>((ready) => requestAnimationFrame(() => setTimeout(ready, 0))).then(
      embedded?.chats ?? (() => openChats(props.place.workspace)),
    ),
  );
  onCleanup(() => chats()?.dispose());
  const [providersVersion, setProvidersVersion] = createSignal(0);
  createEffect(on(chats, (hub) => hub && onCleanup(hub.onChange(() => setProvidersVersion((n) => n + 1)))));
  // Undo per step: loaded with the chat, over the workspace's checkpoints when it keeps any.
  const [undoModules] = createResource(() => Promise.all([import("../page/session-undo.js"), import("../page/workspace-checkpoints.js")]));
  const undoOf = (view: ChatView) => {
    const modules = undoModules();
    if (!modules || !("dropFrom" in view)) return undefined;
    const [{ sessionUndoFor }, { pageCheckpointsOf }] = modules;
    return sessionUndoFor(view as ChatView & UndoableChat, pageCheckpointsOf(props.runtime()));
  };
  const chat = createMemo((): ChatView | undefined => {
    const current = page();
    const hub = chats();
    return current && hub ? hub.chatFor(current) : undefined;
  });

  // Prompts come and go outside the chat's own changes (a palette call asking, an answer from Tools).
  const [promptsVersion, setPromptsVersion] = createSignal(0);
  const [callsVersion, setCallsVersion] = createSignal(0);
  createEffect(
    on(page, (current) => {
      if (!current) return;
      const offPrompts = current.onPromptsChanged(() => setPromptsVersion((n) => n + 1));
      const offCalls = current.onChange(() => setCallsVersion((n) => n + 1));
      onCleanup(() => (offPrompts(), offCalls()));
    }),
  );
  // A session named after its first message shows the new name in the picker.
  createEffect(
    on(chat, (view) => {
      if (!view) return;
      let title = page()?.record.title;
      onCleanup(
        view.onChange(() => {
          const now = page()?.record.title;
          if (now === title) return;
          title = now;
          setCallsVersion((n) => n + 1);
        }),
      );
    }),
  );
  // An opencode.json edited while the chat answers is put in force once the answer ends (tools-controller.ts).
  createEffect(
    on(chat, (view) => {
      if (!view) return;
      const answering = () => view.status().type !== "idle";
      controller.chatBusy = answering;
      let was = answering();
      onCleanup(
        view.onChange(() => {
          if (was && !answering()) void controller.applyConfigChange();
          was = answering();
        }),
      );
    }),
  );
  const prompts = () => (promptsVersion(), page(), controller.pending());
  const summaries = () => (state(), callsVersion(), state().sessions?.list() ?? []);
  const busy = () => state().moving || !state().sessions;

  // Escape stops the chat wherever focus is, unless a dialog or menu has it.
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || event.defaultPrevented || tab() !== "chat") return;
    if (document.querySelector("[role=dialog]")) return;
    const current = chat();
    if (current && current.status().type !== "idle") current.stop();
  };
  window.addEventListener("keydown", onKey);
  onCleanup(() => window.removeEventListener("keydown", onKey));

  const fail = (what: string, error: unknown) => props.report(`${what}: ${errorMessage(error)}`, true);

  /**
   * The chats and the current session once they have opened: the welcome's buttons show before they do,
   * and a press meanwhile waits for them instead of being lost.
   */
  const opened = async () => {
    for (let waited = 0; ; waited += 100) {
      const hub = chats();
      const current = page();
      if (hub && current) return { hub, current };
      if (waited >= 30_000) throw new Error("the chat did not start within 30 s: reload the page");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** Plays a script in the current session, or in a new one when this one already has a conversation. */
  const play = async (
    load: () => Promise<{ file: import("../page/script-file.js").ScriptFile; name: string; speed?: number; shared?: boolean }>,
  ) => {
    try {
      const { hub } = await opened();
      const { file, name, speed, shared } = await load();
      let current = page();
      if (current && (current.record.messages.length > 0 || current.calls.length > 0)) {
        await controller.create();
        current = controller.page();
      }
      if (!current) return;
      setTab("chat");
      await hub.runScript(current, file, { name, shared, ...(speed !== undefined ? { speed } : {}) });
    } catch (error) {
      fail("The recording could not play", error);
    }
  };
  const watchDemo = () =>
    play(async () => {
      const [{ default: demo }, { ScriptFile }] = await Promise.all([
        import("../page/demo/demo-script.json"),
        import("../page/script-file.js"),
      ]);
      return { file: ScriptFile.parse(demo), name: "Recorded demo" };
    });
  const replayScript = (file: File) =>
    play(async () => {
      const { parseScriptFile } = await import("../page/script-file.js");
      // A script file can come from anyone: its network calls ask, as a shared session's do.
      return { file: parseScriptFile(await file.text(), file.name), name: `Recording: ${file.name}`, speed: 1, shared: true };
    });
  const exportCurrent = async () => {
    const current = page();
    if (!current) return;
    const { exportSession } = await import("../session/record/session-json.js");
    saveBytes(
      new TextEncoder().encode(exportSession(current.record)),
      `${fileStem(current.record.title)}.session.json`,
      "application/json",
    );
  };
  const saveScript = async () => {
    const current = page();
    if (!current) return;
    const { scriptFileFromSession } = await import("../page/script-file.js");
    const script = scriptFileFromSession(current.record);
    if (script.steps.length === 0)
      return props.report("This session has no answers to save as a script yet: chat first, or import a session.", true);
    saveBytes(
      new TextEncoder().encode(JSON.stringify(script, null, 2)),
      `${fileStem(current.record.title)}.script.json`,
      "application/json",
    );
  };
  const importFile = async (file: File) => {
    try {
      const { importSession } = await import("../session/record/session-json.js");
      const record = importSession(await file.text());
      await controller.move((all) => all.adopt(record));
      setTab("chat");
    } catch (error) {
      fail(`${file.name} was not imported`, error);
    }
  };

  // The welcome's "Add a key" opens the chat's key dialog (once the chat is there); "demo" plays it.
  const [keysWanted, setKeysWanted] = createSignal(false);
  createEffect(
    on(
      () => props.request?.(),
      (request) => {
        if (!request) return;
        setTab("chat");
        if (request.kind === "add-key") setKeysWanted(true);
        else if (request.kind === "ask")
          requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-testid=chat-pane] [data-testid=prompt-input]")?.focus());
        else void watchDemo();
      },
    ),
  );
  const [sharing, setSharing] = createSignal(false);
  const [speed, setSpeed] = createSignal(1);
  /** Re-runs the shared session through the scripted provider: real tools, real permission prompts. */
  const replayShared = () =>
    play(async () => {
      const current = page();
      if (!current || current.record.messages.length === 0) throw new Error("this session has nothing to replay");
      const { scriptFileFromSession } = await import("../page/script-file.js");
      const file = scriptFileFromSession(current.record);
      if (file.steps.length === 0) throw new Error("this session has no answers to replay");
      return { file, name: `Replay: ${current.record.title}`, speed: speed(), shared: true };
    });

  const tabButton = (id: Tab, label: string) => (
    <button
      type="button"
      role="tab"
      id={`right-tab-${id}`}
      class="right-tab"
      aria-selected={tab() === id}
      aria-controls={`right-panel-${id}`}
      tabIndex={tab() === id ? 0 : -1}
      data-testid={`tab-${id}`}
      onClick={() => setTab(id)}
      onKeyDown={(event) => {
        if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
        event.preventDefault();
        const next: Tab = id === "chat" ? "tools" : "chat";
        setTab(next);
        document.getElementById(`right-tab-${next}`)?.focus();
      }}
    >
      {label}
    </button>
  );

  return (
    <section class="right-pane" aria-label="Agent" data-testid="right-pane">
      <div class="right-head" hidden={embedded !== undefined}>
        <div role="tablist" aria-label="Agent views" class="right-tabs">
          {tabButton("chat", "Chat")}
          {tabButton("tools", "Tools")}
        </div>
        <Show when={props.share}>
          <button type="button" class="button" data-testid="share-button" disabled={busy() || !page()} onClick={() => setSharing(true)}>
            Share
          </button>
        </Show>
        <SessionMenu
          disabled={() => busy() || !page()}
          chatReady={() => chats() !== undefined}
          onReplayScript={(file) => void replayScript(file)}
          onSaveScript={() => void saveScript()}
          onExport={() => void exportCurrent()}
          onImport={(file) => void importFile(file)}
          {...(props.onGettingStarted ? { onGettingStarted: props.onGettingStarted } : {})}
        />
      </div>
      <Show when={sharing() && props.share && page()}>
        <ShareDialog
          actions={props.share!}
          runtime={props.runtime()}
          name={props.place.workspace}
          session={page()!.record}
          theme={props.theme?.() ?? "light"}
          onClose={() => setSharing(false)}
        />
      </Show>
      <Show when={props.shared}>
        <div class="share-replay" role="group" aria-label="Replay the shared session" data-testid="share-replay">
          <span>
            Opened from a share link. Replay its session with real tools (you are asked before anything that needs permission, and before
            every network call):
          </span>
          <label>
            Speed{" "}
            <select value={String(speed())} onChange={(e) => setSpeed(Number(e.currentTarget.value))} data-testid="share-replay-speed">
              {REPLAY_SPEEDS.map((n) => (
                <option value={String(n)}>{n === 0 ? "instant" : `${n}×`}</option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="button"
            data-testid="share-replay-start"
            disabled={!chats() || busy()}
            onClick={() => void replayShared()}
          >
            Replay
          </button>
        </div>
      </Show>
      <div class="right-sessions" hidden={embedded !== undefined}>
        <SessionBar
          sessions={summaries}
          currentID={() => page()?.record.id}
          busy={busy}
          onSwitch={(id) => void controller.switchTo(id)}
          onNew={() => void controller.create()}
          onRename={(id, title) => void controller.rename(id, title)}
          onDelete={(id) => void controller.delete(id).then(() => chats()?.close(id))}
        />
      </div>
      <ConfigNote note={() => state().configNote} onDismiss={() => controller.dismissConfigNote()} />
      <div class="right-panel" role="tabpanel" id="right-panel-chat" aria-labelledby="right-tab-chat" hidden={tab() !== "chat"}>
        <Show when={chats.error}>
          <p class="banner error" role="alert">
            The chat could not start: {String(chats.error)}
          </p>
        </Show>
        <KeyRouteAsks
          asks={(providersVersion(), page() && chats() ? chats()!.keyRouteAsks(page()!) : [])}
          onAnswer={(ask, answer) => chats()?.answerKeyRoute(ask, answer)}
        />
        <Suspense fallback={<p class="tools-note">Loading the chat…</p>}>
          <Show when={chat()} fallback={<p class="tools-note">Loading the chat…</p>}>
            {(view) => (
              <ChatPane
                chat={view()}
                prompts={prompts}
                onReply={(request, reply, message, save) => void controller.answer(request, reply, message, save)}
                listFiles={(prefix) => listFiles(props.runtime(), prefix)}
                providers={() => (providersVersion(), page() && chats() ? chats()!.providers(page()!) : [])}
                onSaveKey={async (input) => {
                  const current = page();
                  if (!current) return;
                  await chats()?.saveProvider(current, input);
                  props.onKeySaved?.();
                }}
                onRemoveKey={(id) => chats()?.removeProvider(id)}
                keysWanted={keysWanted}
                onKeysOpened={() => setKeysWanted(false)}
                undo={undoOf(view())}
                calls={{
                  abort: (id) => page()?.abort(id),
                  wasAborted: (id) => page()?.wasAborted(id) ?? false,
                  readSavedOutput: (path) => page()!.readSavedOutput(path),
                }}
              />
            )}
          </Show>
        </Suspense>
      </div>
      <div class="right-panel" role="tabpanel" id="right-panel-tools" aria-labelledby="right-tab-tools" hidden={tab() !== "tools"}>
        <ToolsPane
          runtime={props.runtime}
          readOnly={props.readOnly}
          place={props.place}
          controller={controller}
          sessionBar={false}
          onRun={() => setTab("tools")}
          visible={() => tab() === "tools"}
          {...(props.runtimeStatus ? { runtimeStatus: props.runtimeStatus } : {})}
        />
      </div>
    </section>
  );
}
