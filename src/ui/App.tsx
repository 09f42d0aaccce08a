import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import type { RuntimeKind } from "../runtime/types.js";
import { ShellSession } from "../workspace/shell-session.js";
import type { Workspace } from "../workspace/workspace.js";
import { CenterPane } from "./CenterPane.js";
import { FileTree } from "./files/FileTree.js";
import { createOpenFiles } from "./files/open-files.js";
import { SearchPanel } from "./files/SearchPanel.js";
import { TransferBar } from "./files/TransferBar.js";
import { TerminalView } from "./terminal/TerminalView.js";
import { createTheme } from "./theme.js";
import { RightPane } from "./RightPane.js";

interface Notice {
  id: number;
  text: string;
  tone: "info" | "warn" | "error";
}

export function App(props: { workspace: Workspace; onChooseRuntime: (kind: RuntimeKind) => void }) {
  const workspace = props.workspace;
  const [runtime, setRuntime] = createSignal(workspace.runtime);
  const [status, setStatus] = createSignal(workspace.status);
  const shell = new ShellSession(() => workspace.runtime);
  const [notices, setNotices] = createSignal<Notice[]>([]);
  const { theme, toggle: toggleTheme } = createTheme();
  const files = createOpenFiles();
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

  const newWorkspaceHref = () => {
    const url = new URL(location.href);
    url.searchParams.set("workspace", `ws-${Date.now().toString(36)}`);
    return url.toString();
  };

  return (
    <div class="app">
      <header class="top">
        <h1>Workbench</h1>
        <div class="runtime" data-testid="runtime-status" data-kind={status().kind} data-phase={status().phase}>
          <span class="badge">{status().kind}</span>
          <span class="detail" role="status">
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
        <span class="workspace-name" title="Workspace name">workspace: {workspace.options.name}</span>
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
              <button type="button" class="dismiss" aria-label="Dismiss" onClick={() => setNotices((all) => all.filter((n) => n.id !== notice.id))}>
                ×
              </button>
            </p>
          )}
        </For>
      </div>
      <main class="panes">
        <aside class="sidebar">
          <TransferBar runtime={runtime} readOnly={workspace.readOnly} report={report} />
          <SearchPanel runtime={runtime} />
          <FileTree runtime={runtime} onError={(message) => report(message, true)} onOpen={files.open} />
        </aside>
        <CenterPane
          files={files}
          runtime={runtime}
          readOnly={workspace.readOnly}
          terminal={<TerminalView shell={shell} root={() => runtime().root} readOnly={workspace.readOnly} theme={theme} />}
        />
        <RightPane runtime={runtime} readOnly={workspace.readOnly} place={{ workspace: workspace.options.name, memoryOnly: workspace.options.memoryOnly }} report={report} />
      </main>
    </div>
  );
}
