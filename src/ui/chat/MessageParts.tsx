/** The pieces of a message in the transcript, one component per kind of part. */
import { createMemo, For, Show, untrack } from "solid-js";
import type { PermissionReply, SavedOutput } from "../../page/page-tools.js";
import type { ToolCall } from "../../session/record/session-record.js";
import type { FilePart, MessageError, Tokens } from "../../session/record/message.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import { CallCard } from "../tools/CallCard.js";
import { PermissionPrompt } from "../tools/PermissionPrompt.js";
import type { ChatState } from "./chat-state.js";
import { QuestionForm } from "./QuestionForm.js";
import { useSessionTools } from "./session-tools-context.js";
import type { QuestionRequest } from "../../session/host/questions.js";
import { errorTitle, tokensText } from "./chat-text.js";

/** What the page offers for the calls a chat shows (PageTools has all three). */
export interface CallControls {
  abort(callID: string): unknown;
  wasAborted(callID: string): boolean;
  readSavedOutput(path: string): Promise<SavedOutput>;
}

export type ReplyToPrompt = (request: PermissionRequest, reply: PermissionReply, message?: string, saveToConfig?: boolean) => void;

/** Only images the person pasted (data: URLs) are shown inline; nothing is fetched from elsewhere. */
const showsInline = (file: FilePart) => file.mime.startsWith("image/") && file.url.startsWith("data:image/");

export function AttachmentChip(props: { file: FilePart }) {
  const name = () => props.file.filename ?? (props.file.url.startsWith("data:") ? "pasted file" : props.file.url.replace(/^file:\/\//, ""));
  return (
    <span class="chat-chip" data-testid="message-attachment" title={`${name()} (${props.file.mime})`}>
      <Show when={showsInline(props.file)}>
        <img src={props.file.url} alt={name()} class="chat-chip-image" />
      </Show>
      <code>{name()}</code>
    </span>
  );
}

/** Reasoning folded away by default; while it streams its summary says so and shows the latest words. */
export function ReasoningBlock(props: { text: string; live: boolean; open?: boolean; onToggle?: (open: boolean) => void }) {
  const tail = () => {
    const flat = props.text.replace(/\s+/g, " ").trim();
    return flat.length > 80 ? `…${flat.slice(-80)}` : flat;
  };
  return (
    <details
      class="chat-reasoning"
      data-testid="reasoning"
      data-live={props.live ? "true" : "false"}
      open={untrack(() => props.open) === true}
      onToggle={(event) => props.onToggle?.(event.currentTarget.open)}
    >
      <summary>
        <Show when={props.live} fallback={<span>Reasoning</span>}>
          <span class="chat-spinner" aria-hidden="true" />
          <span>Thinking… </span>
          <span class="chat-reasoning-tail">{tail()}</span>
        </Show>
      </summary>
      <div class="chat-reasoning-text">{props.text}</div>
    </details>
  );
}

export function StepSummary(props: { tokens: Tokens; cost: number; reason: string }) {
  return (
    <p class="chat-step" data-testid="step-summary" title="Tokens in and out, cost and why the model stopped, for this step">
      {tokensText(props.tokens, props.cost, props.reason)}
    </p>
  );
}

export function MessageErrorNote(props: { error: MessageError }) {
  // "Stopped: Stopped.": a message that only repeats the title is not said twice.
  const saysMore = () => props.error.message.replace(/[.\s]+$/, "") !== errorTitle(props.error.kind);
  return (
    <div class={`chat-error kind-${props.error.kind}`} role="alert" data-testid="message-error" data-kind={props.error.kind}>
      <strong>
        {errorTitle(props.error.kind)}
        {props.error.status ? ` (${props.error.status})` : ""}
      </strong>
      <Show when={saysMore()}>
        <span>: {props.error.message}</span>
      </Show>
      <Show when={props.error.hint}>
        <p class="chat-error-hint" data-testid="message-error-hint">
          {props.error.hint}
        </p>
      </Show>
    </div>
  );
}

/** A tool part: the call's card as the Tools pane shows it, and its permission prompt right under it while it waits. */
export function ToolPartView(props: {
  callID: string;
  tool: string;
  state: ChatState;
  now: () => number;
  calls?: CallControls;
  prompts: () => readonly PermissionRequest[];
  onReply: ReplyToPrompt;
  onStop: () => void;
  /** "Revert this call", offered once the call has ended. */
  onRevert?: (callID: string) => void;
}) {
  const call = createMemo(() => (props.state.callVersion(props.callID)(), props.state.call(props.callID)));
  const tools = useSessionTools();
  // Read with the call's version: asking is a change of the call (a "question" entry among its asks).
  const question = createMemo(() => (props.state.callVersion(props.callID)(), tools?.view().question?.(props.callID)));
  // A batch's (or execute's) calls, each its own card under it, once the batch has named them.
  const batchCalls = createMemo(
    () => {
      // The record changes in place (the same object), so its version is what says the names came.
      props.state.callVersion(props.callID)();
      const entries = call()?.metadata.calls;
      if (!Array.isArray(entries)) return undefined;
      const ids = entries.flatMap((entry) =>
        entry && typeof entry === "object" && typeof (entry as { callID?: unknown }).callID === "string"
          ? [(entry as { callID: string }).callID]
          : [],
      );
      return ids.length > 0 ? ids : undefined;
    },
    undefined,
    { equals: (a, b) => a?.join() === b?.join() },
  );
  const waiting = () => props.prompts().filter((request) => request.tool?.callID === props.callID);
  const position = (request: PermissionRequest) => props.prompts().indexOf(request) + 1;
  return (
    <div class="chat-tool" data-testid="tool-part" data-call={props.callID}>
      <Show when={call()} fallback={<p class="tools-note">{props.tool}: the call's record is not there (yet).</p>}>
        {(record) => (
          <CallCard
            call={record()}
            version={() => props.state.callVersion(props.callID)()}
            aborted={() => (props.state.callVersion(props.callID)(), props.calls?.wasAborted(props.callID) ?? false)}
            now={props.now}
            onAbort={(id) => (props.calls ? props.calls.abort(id) : props.onStop())}
            readSaved={props.calls ? (path) => props.calls!.readSavedOutput(path) : undefined}
          />
        )}
      </Show>
      <Show when={props.onRevert && ["completed", "error"].includes(call()?.status ?? "")}>
        <button type="button" class="link chat-undo" data-testid="revert-call" onClick={() => props.onRevert!(props.callID)}>
          Revert this call
        </button>
      </Show>
      <Show when={(props.tool === "task" || props.tool === "subagent") && call()}>
        {(record) => <TaskProgress call={record()} version={() => props.state.callVersion(props.callID)()} />}
      </Show>
      <Show when={(props.tool === "batch" || props.tool === "execute") && batchCalls()}>
        {(ids) => (
          <div class="chat-batch" data-testid="batch-calls">
            <For each={ids()}>{(id) => <ToolPartView {...props} callID={id} tool="" />}</For>
          </div>
        )}
      </Show>
      <WaitingQuestion request={question()} />
      <For each={waiting()}>
        {(request) => (
          <PermissionPrompt
            request={request}
            input={call()?.input}
            call={call()}
            position={position(request)}
            total={props.prompts().length}
            onReply={(reply, message, save) => props.onReply(request, reply, message, save)}
          />
        )}
      </For>
    </div>
  );
}

/** A task's subagent at work: which agent, how many calls, what it runs now; and its session, to open. */
/** A question waiting at a call (its own, or a subagent's under a task card), answered in place. */
function WaitingQuestion(props: { request: QuestionRequest | undefined }) {
  const tools = useSessionTools();
  return (
    <Show when={props.request}>
      {(request) => (
        <QuestionForm
          request={request()}
          onAnswer={(answers) => tools?.view().answerQuestion?.(request().id, answers)}
          onDismiss={() => tools?.view().dismissQuestion?.(request().id)}
        />
      )}
    </Show>
  );
}

function TaskProgress(props: { call: ToolCall; version: () => number }) {
  const tools = useSessionTools();
  // The record changes in place: reading the call's version makes each of these follow it.
  const meta = () => (props.version(), props.call.metadata);
  const sessionID = () => (typeof meta().sessionId === "string" ? (meta().sessionId as string) : undefined);
  const running = () => (props.version(), props.call.status === "running" || props.call.status === "pending");
  const count = () => (typeof meta().calls === "number" ? (meta().calls as number) : undefined);
  // A question the subagent waits on is answered here too: the person is looking at the main session.
  const question = () => {
    const id = meta().childCallID;
    return running() && meta().asking === true && typeof id === "string" ? tools?.view().question?.(id) : undefined;
  };
  return (
    <div class="chat-task" data-testid="task-progress">
      <span class="chat-task-agent">@{String(meta().subagent ?? props.call.input.subagent_type ?? "subagent")}</span>
      <Show when={count() !== undefined}>
        <span data-testid="task-calls">
          {count()} call{count() === 1 ? "" : "s"}
        </span>
      </Show>
      <Show when={running() && typeof meta().tool === "string"}>
        <span data-testid="task-current">running {String(meta().tool)}</span>
      </Show>
      <Show when={sessionID() && tools}>
        <button type="button" class="button" data-testid="task-open" onClick={() => tools!.openChild(sessionID()!)}>
          Open the subagent's session
        </button>
      </Show>
      <WaitingQuestion request={question()} />
    </div>
  );
}
