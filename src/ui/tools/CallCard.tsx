import { createMemo, createSignal, For, Match, Show, Switch } from "solid-js";
import type { ToolCall } from "../../session/record/session-record.js";
import type { SavedOutput } from "../../page/page-tools.js";
import { saveBytes } from "../download.js";
import { attachmentName, isInlineImage } from "./attachments.js";
import { titleOf } from "./call-title.js";
import "./cards.css";
import { DiffView } from "./DiffView.js";
import { jumpTo, promptSelector } from "./jump.js";
import { linesOf, VirtualLines } from "./VirtualLines.js";
import { cardTitle, deniedRules, exitLabel, functionOutputNote, killedBy, splitBashMetadata } from "./card-text.js";
import { readView, todoItems } from "./card-formats.js";
import { errorMessage } from "../../base/error-message.js";

export type CardState =
  | "pending permission"
  | "waiting for answer"
  | "pending"
  | "running"
  | "completed"
  | "error"
  | "aborted"
  | "timed out"
  | "interrupted";

export function stateOf(call: ToolCall, aborted: boolean): CardState {
  if (aborted && call.status !== "pending" && call.status !== "running") return "aborted";
  // The tool call completed, but the command it ran was killed: not a green "completed".
  if (call.status === "completed" && (call.tool === "bash" || call.tool === "shell")) {
    const killed = killedBy(call.output);
    if (killed === "timeout") return "timed out";
    if (killed === "abort") return "aborted";
  }
  const waiting = call.status === "running" ? call.permissions.filter((p) => p.answer === "pending") : [];
  // The question tool (and plan_enter/plan_exit) waits for the person's answers, not for a permission.
  if (waiting.length > 0 && waiting.every((p) => p.permission === "question")) return "waiting for answer";
  if (waiting.length > 0) return "pending permission";
  return call.status;
}

const TODO_MARKS: Record<string, string> = { completed: "✓", in_progress: "▸", cancelled: "✕", pending: "○" };
/** The status is the model's own text: a name like "constructor" must not reach Object's members. */
const todoMark = (status: string) => (Object.hasOwn(TODO_MARKS, status) ? TODO_MARKS[status]! : "•");

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function rejectionOf(call: ToolCall): string | undefined {
  const refused = call.permissions.find((p) => p.answer === "reject" || p.answer === "deny");
  if (!refused) return undefined;
  const how = refused.answer === "reject" ? "Rejected by the user" : "Denied by a rule";
  return `${how}: ${refused.permission} ${refused.patterns.join(", ")}${refused.message ? ` — "${refused.message}"` : ""}`;
}

/** The notice's words name the saved file too: custom tools may set `truncated` without `outputPath`. */
const SAVED_TO = /Full output saved to: (\S+)/;

/** Whether the call's output was cut, and where its full output was saved (when it says). */
function truncationOf(call: ToolCall): { path?: string } | undefined {
  if (call.metadata.truncated !== true) return undefined;
  const path = call.metadata.outputPath;
  if (typeof path === "string" && path !== "") return { path };
  const named = SAVED_TO.exec(call.output ?? "")?.[1];
  return named ? { path: named } : {};
}

type SavedView = { state: "loading" } | { state: "ready"; saved: SavedOutput; lines: string[] } | { state: "failed"; message: string };

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

function SavedOutputViewer(props: { path: string; read: (path: string) => Promise<SavedOutput> }) {
  const [view, setView] = createSignal<SavedView>({ state: "loading" });
  props.read(props.path).then(
    (saved) => setView({ state: "ready", saved, lines: linesOf(saved.text) }),
    (error: unknown) => setView({ state: "failed", message: errorMessage(error) }),
  );
  return (
    <div class="saved-output" data-testid="saved-output">
      <Switch>
        <Match when={view().state === "loading"}>
          <p class="tools-note">Reading {props.path}…</p>
        </Match>
        <Match when={view().state === "failed" && (view() as { message: string })}>
          {(failed) => (
            <p class="call-error" role="alert" data-testid="saved-output-error">
              {failed().message}
            </p>
          )}
        </Match>
        <Match when={view().state === "ready" && (view() as Extract<SavedView, { state: "ready" }>)}>
          {(ready) => (
            <>
              <div class="saved-output-head">
                <span>
                  Full output: {ready().lines.length.toLocaleString("en")} lines, {ready().saved.size.toLocaleString("en")} bytes
                  {ready().saved.complete ? "" : " (only the first part is shown and downloaded: the file is too big for the page)"}
                </span>
                <span class="spacer" />
                <button
                  type="button"
                  class="button"
                  data-testid="download-output"
                  onClick={() =>
                    saveBytes(new TextEncoder().encode(ready().saved.text), `${baseName(ready().saved.path)}.txt`, "text/plain")
                  }
                >
                  Download
                </button>
              </div>
              <VirtualLines lines={ready().lines} label={`Full output saved at ${props.path}`} testId="saved-output-lines" class="tall" />
            </>
          )}
        </Match>
      </Switch>
    </div>
  );
}

/**
 * One call as a card. `version` changes whenever this call's record (mutated in place by the runner)
 * may have changed, and only then, so an update to one call leaves the other cards alone; `now` ticks
 * while calls run, for the elapsed time. `readSaved` opens a truncated call's saved full output.
 */
export function CallCard(props: {
  call: ToolCall;
  aborted: () => boolean;
  version: () => number;
  now: () => number;
  onAbort: (id: string) => void;
  readSaved?: (path: string) => Promise<SavedOutput>;
}) {
  const snapshot = createMemo(
    () => {
      props.version();
      const call = props.call;
      // The title as a person reads it (card-text.ts); the record keeps the tool's own.
      const title = cardTitle(call.tool, call.title, call.input, call.metadata);
      return {
        ...call,
        title,
        metadata: { ...call.metadata },
        permissions: call.permissions.map((p) => ({ ...p })),
        time: { ...call.time },
      };
    },
    undefined,
    { equals: false },
  );
  const [showSaved, setShowSaved] = createSignal(false);
  const state = () => stateOf(snapshot(), props.aborted());
  const live = () => snapshot().status === "pending" || snapshot().status === "running";
  const elapsed = () => {
    const { time } = snapshot();
    const start = time.start ?? time.created;
    return seconds(Math.max(0, (time.end ?? props.now()) - start));
  };
  const metaText = (key: string) => {
    const value = snapshot().metadata[key];
    return typeof value === "string" ? value : undefined;
  };
  const exit = () => {
    // A background command has no exit yet when its call ends: the jobs list shows how it ends.
    if (snapshot().metadata.background === true) return undefined;
    const value = snapshot().metadata.exit;
    return typeof value === "number" || value === null ? value : undefined;
  };
  // An interrupted call keeps what it had streamed when it was last saved. Past the live view's limit
  // (bash: 30,000 characters) the latest output is shown instead of a head that stopped moving.
  const liveTail = () => {
    const tail = metaText("tail");
    const offset = snapshot().metadata.tailOffset;
    return tail !== undefined && typeof offset === "number" ? { tail, offset } : undefined;
  };
  const liveLines = createMemo(() => {
    if (!live() && snapshot().status !== "interrupted") return [];
    const latest = liveTail();
    if (!latest) return linesOf(splitBashMetadata(metaText("output") ?? "").body);
    const lines = linesOf(latest.tail);
    // The tail starts wherever the limit fell, most likely inside a line: that piece is left out.
    if (lines.length > 1) lines.shift();
    return lines;
  });
  // The bash footer's notes are for the model; the card says them in words below the output.
  const split = createMemo(() => {
    const output = snapshot().output;
    return output === undefined
      ? undefined
      : snapshot().tool === "bash" || snapshot().tool === "shell"
        ? splitBashMetadata(output)
        : { body: output, notes: [] };
  });
  // A read card shows the file's lines (the model's numbered <file> listing is for the model), a todo
  // card its checklist.
  const read = createMemo(() => {
    const output = snapshot().output;
    return snapshot().tool === "read" && output !== undefined ? readView(output) : undefined;
  });
  const todos = createMemo(() =>
    snapshot().status === "completed" ? todoItems(snapshot().tool, snapshot().input, snapshot().metadata) : undefined,
  );
  const outputLines = createMemo(() => {
    const parts = split();
    if (parts === undefined || todos()) return undefined;
    const file = read();
    if (file) return file.lines.length > 0 ? file.lines : undefined;
    return linesOf(parts.body);
  });
  // What the read tool said after the lines; a read from an offset also says where its lines start,
  // since the card shows no line numbers.
  const readNotes = () => {
    const file = read();
    if (!file) return [];
    return [...(file.firstLine > 1 ? [`From line ${file.firstLine.toLocaleString("en")} of the file.`] : []), ...file.notes];
  };
  const failedExit = () => (snapshot().status === "completed" ? exitLabel(snapshot().metadata.exit, snapshot().output) : undefined);
  const denied = createMemo(() => deniedRules(snapshot().error));
  const truncation = createMemo(() => truncationOf(snapshot()));
  const images = () => (snapshot().attachments ?? []).filter(isInlineImage);
  const files = () => (snapshot().attachments ?? []).filter((part) => !isInlineImage(part));
  return (
    <article
      class="call-card"
      data-testid="call-card"
      data-call-id={snapshot().id}
      data-tool={snapshot().tool}
      data-state={state()}
      aria-label={`${snapshot().tool} call`}
    >
      <header class="call-head">
        <span class="call-tool">{snapshot().tool}</span>
        <span class="call-title">{titleOf(snapshot())}</span>
        <span class={`call-state state-${state().replaceAll(" ", "-")}`} data-testid="call-state">
          {state()}
        </span>
        <Show when={failedExit()}>
          {(label) => (
            <span
              class="call-exit-code"
              data-testid="call-exit-code"
              title="The command ran and exited with this status (the tool call itself completed)"
            >
              {label()}
            </span>
          )}
        </Show>
        <span class="call-time" data-testid="call-time">
          {elapsed()}
        </span>
        <Show when={live()}>
          <button type="button" class="button" onClick={() => props.onAbort(snapshot().id)}>
            Abort
          </button>
        </Show>
      </header>
      <Show when={state() === "pending permission"}>
        <button
          type="button"
          class="link-button call-waiting"
          data-testid="card-show-prompt"
          onClick={() => jumpTo(promptSelector(snapshot().id))}
        >
          Waiting for your answer: show the prompt
        </button>
      </Show>
      {/* Unfolded while the call waits for permission: the input is what is being decided on. */}
      <details class="call-input" open={state() === "pending permission"}>
        <summary>Input</summary>
        <pre data-testid="call-input">{JSON.stringify(snapshot().input, null, 2)}</pre>
      </details>
      <Show when={live() && snapshot().metadata.checkingTypes === true}>
        <p class="call-live-skipped" data-testid="call-checking-types">
          Written; now checking the file for type errors. The first check of a session loads the language service (TypeScript), which takes
          a few seconds.
        </p>
      </Show>
      <Show when={live() && functionOutputNote(snapshot().tool, snapshot().input)}>
        {(note) => (
          <p class="call-live-skipped" data-testid="call-function-note">
            {note()}
          </p>
        )}
      </Show>
      <Show when={liveLines().length > 0 && liveTail()}>
        {(latest) => (
          <p class="call-live-skipped" data-testid="call-live-skipped">
            {`Showing the latest output: ${latest().offset.toLocaleString("en")} earlier characters are not shown live (the whole output is kept).`}
          </p>
        )}
      </Show>
      <Show when={liveLines().length > 0}>
        <VirtualLines lines={liveLines()} label={`Live output of the ${snapshot().tool} call`} follow testId="call-live" class="live" />
      </Show>
      <Show when={rejectionOf(snapshot())}>
        <p class="call-rejection" data-testid="call-rejection">
          {rejectionOf(snapshot())}
        </p>
      </Show>
      <Show when={!live() && metaText("diff")}>
        <DiffView diff={metaText("diff")!} label={`Diff of the ${snapshot().tool} call`} />
      </Show>
      <Show when={truncation()}>
        {(cut) => (
          <p class="call-truncated" role="note" data-testid="call-truncated">
            <strong>Output truncated.</strong>
            <Show when={cut().path} fallback={<span>The tool did not say where the full output was saved.</span>}>
              {(path) => (
                <>
                  <span>
                    The full output was saved to <code>{path()}</code>.
                  </span>
                  <Show when={props.readSaved}>
                    <button
                      type="button"
                      class="button"
                      aria-expanded={showSaved()}
                      onClick={() => setShowSaved((open) => !open)}
                      data-testid="open-full-output"
                    >
                      {showSaved() ? "Hide full output" : "Open full output"}
                    </button>
                  </Show>
                </>
              )}
            </Show>
          </p>
        )}
      </Show>
      <Show when={showSaved() && truncation()?.path && props.readSaved}>
        <SavedOutputViewer path={truncation()!.path!} read={props.readSaved!} />
      </Show>
      {/* The saved full output, once opened, stands in for the cut preview rather than repeating its first lines. */}
      <Show when={!showSaved() && outputLines()}>
        {(lines) => <VirtualLines lines={lines()} label={`Output of the ${snapshot().tool} call`} testId="call-output" />}
      </Show>
      <Show when={todos()}>
        {(items) => (
          <ul class="call-todos" role="list" aria-label="Todo list" data-testid="call-todos">
            <For each={items()}>
              {(item) => (
                <li class={`call-todo status-${item.status.replace(/[^a-z_]/gi, "")}`} data-testid="call-todo" data-status={item.status}>
                  <span class="call-todo-mark" aria-hidden="true">
                    {todoMark(item.status)}
                  </span>
                  <span>{item.content}</span>
                  <span class="visually-hidden">({item.status.replace("_", " ")})</span>
                  <Show when={item.priority === "high"}>
                    <span class="call-todo-priority">high</span>
                  </Show>
                </li>
              )}
            </For>
          </ul>
        )}
      </Show>
      <For each={readNotes()}>
        {(note) => (
          <p class="call-read-note" data-testid="call-read-note">
            {note}
          </p>
        )}
      </For>
      <For each={split()?.notes ?? []}>
        {(note) => (
          <p class="call-note" role="note" data-testid="call-note">
            {note}
          </p>
        )}
      </For>
      <Show when={images().length + files().length > 0}>
        <ul class="call-attachments" aria-label="Attachments" data-testid="call-attachments">
          <For each={images()}>
            {(part) => (
              <li>
                <img src={part.url} alt={attachmentName(part)} data-testid="attachment-image" />
              </li>
            )}
          </For>
          <For each={files()}>
            {(part) => (
              <li class="attachment-file" data-testid="attachment-file">
                <code>{attachmentName(part)}</code> ({part.mime})
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={exit() !== undefined}>
        <p class="call-exit" data-testid="call-exit">
          exit {exit() === null ? "none (killed)" : String(exit())}
        </p>
      </Show>
      <Show when={denied()}>
        {(rules) => (
          <div class="call-error call-denied" data-testid="call-error">
            <p>A rule in force denies this call, so it did not run. The rules about it, last one deciding:</p>
            <ol class="rule-list" data-testid="denied-rules">
              <For each={rules()}>
                {(rule) => (
                  <li class="rule-row">
                    <code class="rule-permission">{rule.permission}</code>
                    <code class="rule-pattern">{rule.pattern}</code>
                    <span class={`rule-action action-${rule.action}`}>{rule.action}</span>
                  </li>
                )}
              </For>
            </ol>
            <p class="settings-help">Change them in Settings or in opencode.json's permission section.</p>
          </div>
        )}
      </Show>
      <Show when={!denied() && snapshot().error}>
        <pre class="call-error" data-testid="call-error">
          {snapshot().error}
        </pre>
      </Show>
    </article>
  );
}
