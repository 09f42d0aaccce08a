/**
 * The workbench as a docs page holds it: a compact header (theme, "Open in workbench"), one view at a
 * time (chat, tools, editor, terminal) and no session list. Its session and chats live in memory with
 * no keys and no remembered trust: an embed never sees the visitor's own workspaces or keys.
 * `surface` is what the embed's backend (src/embed, wired in main.tsx) drives.
 */
import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import type { ToolCall, SessionRecord } from "../../session/record/session-record.js";
import type { PageChats } from "../../page/page-chat.js";
import type { PageTools } from "../../page/page-tools.js";
import { ShellSession } from "../../workspace/shell-session.js";
import type { Workspace } from "../../workspace/workspace.js";
import { CenterPane } from "../CenterPane.js";
import { createTreeState } from "../files/tree-state.js";
import { FileTree } from "../files/FileTree.js";
import { createOpenFiles } from "../files/open-files.js";
import { RightPane } from "../RightPane.js";
import { TerminalView } from "../terminal/TerminalView.js";
import type { ThemeName } from "../theme.js";
import { ToolsController, type TrustMemory } from "../tools/tools-controller.js";
import { errorMessage } from "../../base/error-message.js";
import { HostMessagePrompt, type HostMessageRequest } from "./HostMessagePrompt.js";
import { firstFile } from "./first-file.js";

export type EmbedView = "chat" | "tools" | "editor" | "terminal" | "preview";

export interface EmbedSettings {
  view: EmbedView;
  theme: ThemeName;
  readOnly: boolean;
  /** The content decides the height (the host follows it). */
  autoHeight: boolean;
}

/** What the frame's backend drives; the same shape as src/embed's EmbedSurface. */
export interface EmbedAppSurface {
  runtime(): Runtime;
  page(): Promise<PageTools>;
  start(tool: string, args: Record<string, unknown>): Promise<{ call: ToolCall; done: Promise<ToolCall> }>;
  adopt(record: SessionRecord): Promise<void>;
  reopen(): Promise<void>;
  chats(): Promise<PageChats>;
  openFile(path: string): void;
  setTheme(theme: ThemeName): void;
  setView(view: EmbedView): void;
  measure(): number;
  looks(): { view: EmbedView; theme: ThemeName };
  /** Every change of a call's record in the session shown. */
  onCall(listener: (call: ToolCall) => void): () => void;
  /** The content's height, whenever it changes (auto height only). */
  onResize(listener: (height: number) => void): () => void;
  askReader(request: HostMessageRequest): Promise<boolean>;
}

/** Trust for an embed: never offered, never remembered, never read from the visitor's storage. */
function memoryTrust(): TrustMemory {
  const trusted = new Set<string>();
  return {
    // The host page chose the files: its code must never run with the reader's say-so clicked inside its frame.
    offered: false,
    isTrusted: (workspace) => trusted.has(workspace),
    remember: (workspace) => (trusted.add(workspace), false),
    forget: (workspace) => void trusted.delete(workspace),
  };
}

/** Chats with no keys and no saved servers or settings: nothing of the visitor's is read or written. */
async function openMemoryChats(): Promise<PageChats> {
  const [{ PageChats }, { KeyStore }, { LocalProviders }] = await Promise.all([
    import("../../page/page-chat.js"),
    import("../../session/provider/keys.js"),
    import("../../session/provider/local-providers.js"),
  ]);
  return new PageChats({ keys: new KeyStore(), local: new LocalProviders() });
}

const VIEWS: { id: EmbedView; label: string }[] = [
  { id: "chat", label: "Chat" },
  { id: "tools", label: "Tools" },
  { id: "editor", label: "Editor" },
  { id: "terminal", label: "Terminal" },
  { id: "preview", label: "Preview" },
];

export function EmbedApp(props: {
  workspace: Workspace;
  settings: EmbedSettings;
  workbenchHref: () => Promise<string>;
  bind: (surface: EmbedAppSurface) => void;
}) {
  const workspace = props.workspace;
  const runtime = () => workspace.runtime;
  const readOnly = props.settings.readOnly || workspace.readOnly;
  const place = { workspace: workspace.options.name, memoryOnly: true };
  // The visitor's own fetch proxy stays theirs: a host page starts this frame's calls and reads their output.
  const controller = new ToolsController({ place, readOnly: false, trust: memoryTrust(), ownProxy: false });
  onCleanup(() => controller.dispose());
  const chats = openMemoryChats();
  const [view, setView] = createSignal<EmbedView>(props.settings.view);
  const [theme, setThemeSignal] = createSignal<ThemeName>(props.settings.theme);
  const applyTheme = (name: ThemeName) => {
    document.documentElement.dataset.theme = name;
    setThemeSignal(name);
  };
  applyTheme(props.settings.theme);
  const files = createOpenFiles();
  const shell = new ShellSession(runtime);
  const [notice, setNotice] = createSignal<{ text: string; error: boolean }>();
  const report = (text: string, isError = false) => setNotice({ text, error: isError });
  let root!: HTMLDivElement;

  const page = () =>
    new Promise<PageTools>((resolve) => {
      const now = controller.page();
      if (now && !controller.state().moving) return resolve(now);
      const off = controller.subscribe(() => {
        const next = controller.page();
        if (!next || controller.state().moving) return;
        off();
        resolve(next);
      });
    });

  // The host's messages waiting for the reader, oldest first: one prompt at a time, each answered alone.
  const [asking, setAsking] = createSignal<{ request: HostMessageRequest; answer: (allowed: boolean) => void }[]>([]);
  const answerFirst = (allowed: boolean) => {
    const [first, ...rest] = asking();
    setAsking(rest);
    first?.answer(allowed);
  };
  // A frame going away answers no for the reader: nothing waits on a prompt no one can see.
  onCleanup(() => asking().forEach((waiting) => waiting.answer(false)));

  const callListeners = new Set<(call: ToolCall) => void>();
  let watched: PageTools | undefined;
  let offCalls = () => {};
  const watch = () => {
    const current = controller.page();
    if (current === watched) return;
    offCalls();
    watched = current;
    offCalls = current
      ? current.onCallUpdated((id) => {
          const call = current.calls.find((c) => c.id === id);
          if (call) for (const listener of callListeners) listener(call);
        })
      : () => {};
  };
  onCleanup(controller.subscribe(watch));
  onCleanup(() => offCalls());

  const resizeListeners = new Set<(height: number) => void>();
  const measure = () => Math.ceil(root.getBoundingClientRect().height);
  onMount(() => {
    if (!props.settings.autoHeight) return;
    const observer = new ResizeObserver(() => {
      const height = measure();
      for (const listener of resizeListeners) listener(height);
    });
    observer.observe(root);
    onCleanup(() => observer.disconnect());
  });

  const show = (next: EmbedView) => {
    setView(next);
    if (next === "terminal") files.showTerminal();
    // "Editor" shows a file: the one open last, else the workspace's first (never the terminal).
    if (next === "editor" && files.active() === undefined) {
      const open = files.files()[0];
      if (open) files.show(open.path);
      else
        void firstFile(runtime()).then((path) => {
          if (path && view() === "editor" && files.active() === undefined) files.open(path);
        });
    }
  };

  props.bind({
    runtime,
    page,
    async start(tool, args) {
      await page();
      const started = controller.run(tool, args);
      if (!started) throw new Error("runTool: the session is busy moving; try again.");
      return started;
    },
    async adopt(record) {
      // A move before the sessions are open would do nothing: wait for them.
      await page();
      await controller.move((all) => all.adopt(record));
      const error = controller.state().sessionError;
      if (error) throw new Error(`The recorded session could not be shown: ${error}`);
    },
    async reopen() {
      const current = await page();
      controller.replaced(await current.reopen());
    },
    chats: () => chats,
    openFile(path) {
      files.open(path);
      show("editor");
    },
    setTheme: applyTheme,
    setView: show,
    measure,
    looks: () => ({ view: view(), theme: theme() }),
    onCall(listener) {
      callListeners.add(listener);
      return () => callListeners.delete(listener);
    },
    onResize(listener) {
      resizeListeners.add(listener);
      return () => resizeListeners.delete(listener);
    },
    askReader(request) {
      // The reader is asked where they read the chat.
      show("chat");
      return new Promise((answer) => setAsking((waiting) => [...waiting, { request, answer }]));
    },
  });

  const openFull = async (event: MouseEvent) => {
    event.preventDefault();
    try {
      window.open(await props.workbenchHref(), "_blank", "noopener");
    } catch (error) {
      report(`The workbench could not be opened: ${errorMessage(error)}`, true);
    }
  };
  const pane = (): "chat" | "tools" | undefined => {
    const now = view();
    return now === "chat" || now === "tools" ? now : undefined;
  };

  // An embed remembers no open folders: its workspace is gone with the frame.
  const tree = createTreeState();
  return (
    <div
      class="app embed-app"
      classList={{ "embed-auto": props.settings.autoHeight }}
      ref={root}
      data-testid="embed-app"
      data-view={view()}
    >
      <header class="top embed-top">
        <div role="tablist" aria-label="Views" class="right-tabs">
          <For each={VIEWS}>
            {(item) => (
              <button
                type="button"
                role="tab"
                class="right-tab"
                aria-selected={view() === item.id}
                data-testid={`embed-view-${item.id}`}
                onClick={() => show(item.id)}
              >
                {item.label}
              </button>
            )}
          </For>
        </div>
        <span class="embed-spacer" />
        <button
          type="button"
          class="button theme-toggle"
          data-testid="theme-toggle"
          data-theme={theme()}
          aria-label={theme() === "dark" ? "Switch to the light theme" : "Switch to the dark theme"}
          onClick={() => applyTheme(theme() === "dark" ? "light" : "dark")}
        >
          {theme() === "dark" ? "☀" : "☾"}
        </button>
        <a class="button" href="/" target="_blank" rel="noopener" data-testid="open-in-workbench" onClick={(event) => void openFull(event)}>
          Open in workbench ↗
        </a>
      </header>
      <Show when={notice()}>
        {(shown) => (
          <p class={`banner ${shown().error ? "error" : "info"}`} role="alert" data-testid="notice">
            {shown().text}
          </p>
        )}
      </Show>
      <Show when={asking()[0]}>
        {(first) => <HostMessagePrompt request={first().request} waiting={asking().length} onAnswer={answerFirst} />}
      </Show>
      <main class="embed-body">
        <div class="embed-panel" hidden={pane() === undefined}>
          <RightPane
            runtime={runtime}
            readOnly={readOnly}
            place={place}
            report={report}
            embedded={{ controller, chats: () => chats, tab: () => pane() ?? "chat" }}
          />
        </div>
        <div class="embed-panel embed-files" hidden={pane() !== undefined}>
          <aside class="sidebar" hidden={view() !== "editor"}>
            <FileTree runtime={runtime} tree={tree} readOnly={readOnly} onError={(message) => report(message, true)} onOpen={files.open} />
          </aside>
          <CenterPane
            previewShown={() => view() === "preview"}
            files={files}
            runtime={runtime}
            readOnly={readOnly}
            terminal={<TerminalView shell={shell} root={() => runtime().root} readOnly={readOnly} theme={theme} />}
          />
        </div>
      </main>
    </div>
  );
}
