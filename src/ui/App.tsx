import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import type { RuntimeKind } from "../runtime/types.js";
import { ShellSession } from "../workspace/shell-session.js";
import type { Workspace } from "../workspace/workspace.js";
import { CenterPane } from "./CenterPane.js";
import { DeskWelcome } from "./DeskWelcome.js";
import { createSidebarWidth, SidebarResizer } from "./files/SidebarResizer.js";
import { FileTree } from "./files/FileTree.js";
import { createOpenFiles, type TabsMemory } from "./files/open-files.js";
import { SearchPanel } from "./files/SearchPanel.js";
import { createTreeState, type TreeMemory } from "./files/tree-state.js";
import { TransferBar } from "./files/TransferBar.js";
import { keepScrollback } from "./terminal-scrollback.js";
import { TerminalView } from "./terminal/TerminalView.js";
import { createTheme } from "./theme.js";
import { RightPane, type DeskRequest } from "./RightPane.js";
import { PaneSwitcher, type PhonePane } from "./PaneSwitcher.js";
import { addSampleProject } from "../workspace/sample-project.js";
import { addTemplate, type Template } from "../workspace/templates/template.js";
import { errorMessage } from "../base/error-message.js";

/** The tree's open folders are remembered per workspace, except for one in memory only. */
function treeMemory(workspace: Workspace): TreeMemory | undefined {
  if (workspace.options.memoryOnly) return undefined;
  try {
    return { storage: window.localStorage, key: `workbench-open-folders:${workspace.options.name}` };
  } catch {
    return undefined;
  }
}

/** Open tabs are remembered per workspace, and not for one kept in memory only (its files are gone after a reload). */
function tabsMemory(workspace: Workspace): TabsMemory | undefined {
  if (workspace.options.memoryOnly) return undefined;
  try {
    return { storage: window.localStorage, key: `workbench-open-files:${workspace.options.name}` };
  } catch {
    return undefined;
  }
}
import type { ShareActions } from "./share/share-actions.js";

interface Notice {
  id: number;
  text: string;
  tone: "info" | "warn" | "error";
}

export function App(props: { workspace: Workspace; onChooseRuntime: (kind: RuntimeKind) => void; share?: ShareActions; shared?: boolean }) {
  const workspace = props.workspace;
  const [runtime, setRuntime] = createSignal(workspace.runtime);
  const [status, setStatus] = createSignal(workspace.status);
  const shell = new ShellSession(() => workspace.runtime);
  const [notices, setNotices] = createSignal<Notice[]>([]);
  const { theme, toggle: toggleTheme } = createTheme();
  const files = createOpenFiles(tabsMemory(workspace));
  const tree = createTreeState(treeMemory(workspace));
  const sidebar = createSidebarWidth();
  // The welcome's buttons act in the right pane (the chat's key dialog, the recorded demo).
  const [deskRequest, setDeskRequest] = createSignal<DeskRequest | undefined>(undefined);
  let requests = 0;
  // On a phone one pane shows at a time (PaneSwitcher): the agent first, and wherever a person's action leads.
  const [phonePane, setPhonePane] = createSignal<PhonePane>("agent");
  const ask = (kind: DeskRequest["kind"]) => {
    setPhonePane("agent");
    setDeskRequest({ kind, seq: ++requests });
  };
  const openFile: typeof files.open = (...args) => {
    setPhonePane("work");
    return files.open(...args);
  };
  const [keyAdded, setKeyAdded] = createSignal(false);
  const [welcomeAgain, setWelcomeAgain] = createSignal(0);
  // The terminal's lines come back after a reload (for the life of the tab), for a workspace that
  // survives one: one in memory only starts over, files and terminal alike.
  const restoreScrollback = (term: Parameters<typeof keepScrollback>[0]) => {
    if (workspace.options.memoryOnly) return;
    let storage: Storage | undefined;
    try {
      storage = window.sessionStorage;
    } catch {
      return;
    }
    onCleanup(keepScrollback(term, storage, `workbench-terminal:${workspace.options.name}`));
  };
  const openSample = async () => {
    try {
      const sample = await addSampleProject(runtime());
      tree.setOpen(sample.folder, true);
      openFile(sample.readme);
      if (!sample.created) report("sample-project/ was already here: it is opened as it is, nothing was replaced.");
    } catch (error) {
      report(`The sample project could not be added: ${errorMessage(error)}`, true);
    }
  };
  const openTemplate = async (template: Template) => {
    try {
      const added = await addTemplate(runtime(), template);
      tree.setOpen(added.folder, true);
      openFile(added.main);
      if (!added.created) report(`${template.id}/ was already here: it is opened as it is, nothing was replaced.`);
    } catch (error) {
      report(`The template could not be added: ${errorMessage(error)}`, true);
    }
  };
  // A workspace that opens with nothing in it (dot-files aside) offers the start again, dismissed or not.
  const [blank, setBlank] = createSignal(false);
  onMount(
    () =>
      void runtime()
        .fs.readdir(runtime().root)
        .then(
          (entries) => setBlank(entries.every((entry) => entry.name.startsWith("."))),
          () => undefined,
        ),
  );
  let nextNotice = 1;
  const report = (text: string, isError = false) => {
    const id = nextNotice++;
    setNotices((all) => [...all.slice(-3), { id, text, tone: isError ? "error" : "info" }]);
    if (!isError) setTimeout(() => setNotices((all) => all.filter((n) => n.id !== id)), 6_000);
  };

  const off = workspace.onStatus(() => {
    if (workspace.runtime !== runtime()) shell.reset();
    setRuntime(() => workspace.runtime);
    setStatus(workspace.status);
  });
  onCleanup(off);
  // The requested runtime starts after the first paint, never before it.
  onMount(() => requestAnimationFrame(() => setTimeout(() => void workspace.startRequested(), 0)));
  // Tabs remembered from the last visit whose files have gone since do not come back.
  // Only "no such file" closes a tab: any other failure keeps it (the editor says what went wrong).
  const exists = (path: string) =>
    runtime()
      .fs.lstat(path)
      .then(
        () => true,
        (error: unknown) => (error as { code?: unknown } | null)?.code !== "ENOENT",
      );
  onMount(() => void files.closeMissing(exists));

  const newWorkspaceHref = () => {
    const url = new URL(location.href);
    url.searchParams.set("workspace", `ws-${Date.now().toString(36)}`);
    return url.toString();
  };

  // A .workbench.json dropped anywhere opens as a share (in a new workspace); other drops are the tree's.
  const dropShare = (event: DragEvent) => {
    const file = [...(event.dataTransfer?.files ?? [])].find((f) => f.name.endsWith(".workbench.json"));
    if (!file || !props.share) return;
    event.preventDefault();
    props.share.openFile(file).catch((error: unknown) => report(errorMessage(error), true));
  };

  return (
    <div class="app" onDragOver={(e) => props.share && e.dataTransfer?.types.includes("Files") && e.preventDefault()} onDrop={dropShare}>
      <header class="top">
        <h1>Workbench</h1>
        <div class="runtime" data-testid="runtime-status" data-kind={status().kind} data-phase={status().phase} title={status().detail}>
          <span class="badge">{status().kind}</span>
          {/* Once ready, the machinery (just-bash in a worker, ZenFS) is a tooltip, not the header's first words. */}
          <span class="detail" classList={{ "visually-hidden": status().phase === "ready" }} role="status">
            {status().phase === "fallback" ? "WebContainer unavailable (the reason is below)" : status().detail}
          </span>
        </div>
        <label class="runtime-choice">
          Runtime
          <select
            value={workspace.options.requested}
            onChange={(e) => props.onChooseRuntime(e.currentTarget.value as RuntimeKind)}
            aria-label="Runtime to use"
          >
            <option value="embedded">embedded</option>
            <option value="webcontainer">webcontainer</option>
          </select>
        </label>
        <span class="workspace-name" title="Workspace name">
          workspace: {workspace.options.name}
        </span>
        <button
          type="button"
          class="button theme-toggle"
          onClick={toggleTheme}
          aria-label={theme() === "dark" ? "Switch to the light theme" : "Switch to the dark theme"}
          title={theme() === "dark" ? "Switch to the light theme" : "Switch to the dark theme"}
          data-testid="theme-toggle"
          data-theme={theme()}
        >
          {theme() === "dark" ? "☀ Light" : "☾ Dark"}
        </button>
      </header>
      <Show when={status().phase === "fallback"}>
        <p class="banner warn" role="alert" data-testid="runtime-fallback">
          WebContainer unavailable: {status().detail}
        </p>
      </Show>
      <Show when={workspace.notices.storage}>
        <p class="banner warn" role="alert" data-testid="storage-notice">
          {workspace.notices.storage}
        </p>
      </Show>
      <Show when={workspace.notices.readOnly}>
        <p class="banner warn" role="alert" data-testid="read-only-notice">
          {workspace.notices.readOnly} <a href={newWorkspaceHref()}>Open a new workspace</a>
        </p>
      </Show>
      <div class="notices" aria-live="polite">
        <For each={notices()}>
          {(notice) => (
            <p class={`banner ${notice.tone}`} data-testid="notice">
              {notice.text}
              <button
                type="button"
                class="dismiss"
                aria-label="Dismiss"
                onClick={() => setNotices((all) => all.filter((n) => n.id !== notice.id))}
              >
                ×
              </button>
            </p>
          )}
        </For>
      </div>
      <DeskWelcome
        readOnly={workspace.readOnly}
        onAddKey={() => ask("add-key")}
        onWatchDemo={() => ask("demo")}
        onSample={openSample}
        onTemplate={openTemplate}
        blank={blank}
        keyAdded={keyAdded}
        onAsk={() => ask("ask")}
        reopened={welcomeAgain}
      />
      <main
        class="panes"
        data-phone-pane={phonePane()}
        classList={{ "sidebar-sized": sidebar.width() !== undefined }}
        style={sidebar.width() !== undefined ? { "--sidebar-width": `${sidebar.width()}px` } : {}}
      >
        <aside class="sidebar">
          <SidebarResizer width={sidebar.width} onResize={sidebar.set} />
          <TransferBar runtime={runtime} readOnly={workspace.readOnly} report={report} />
          <SearchPanel runtime={runtime} onOpen={openFile} />
          <FileTree
            runtime={runtime}
            tree={tree}
            readOnly={workspace.readOnly}
            onError={(message) => report(message, true)}
            onOpen={openFile}
            onMoved={(from, to) => (to !== undefined ? files.moved(from, to) : files.removed(from))}
          />
        </aside>
        <CenterPane
          openPreview={new URLSearchParams(window.location.search).get("preview") ?? undefined}
          files={files}
          runtime={runtime}
          readOnly={workspace.readOnly}
          terminal={
            <TerminalView
              shell={shell}
              root={() => runtime().root}
              readOnly={workspace.readOnly}
              theme={theme}
              onOpen={restoreScrollback}
            />
          }
        />
        <RightPane
          runtime={runtime}
          readOnly={workspace.readOnly}
          place={{ workspace: workspace.options.name, memoryOnly: workspace.options.memoryOnly }}
          report={report}
          share={props.share}
          shared={props.shared}
          theme={theme}
          request={deskRequest}
          onKeySaved={() => setKeyAdded(true)}
          onGettingStarted={() => setWelcomeAgain((count) => count + 1)}
          runtimeStatus={status}
        />
      </main>
      <PaneSwitcher current={phonePane} onPick={setPhonePane} />
    </div>
  );
}
