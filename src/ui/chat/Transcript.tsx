/**
 * The conversation: user messages (text, attachments) and assistant messages (reasoning folded, text as
 * markdown, tool calls as the Tools pane's cards with their prompts, step summaries, errors). Messages
 * and parts are keyed by id, and each part reads only its own values, so a streamed delta re-renders the
 * one part it touches; messages out of view skip layout (content-visibility) so a long transcript stays cheap.
 */
import { createEffect, createMemo, For, Match, on, onCleanup, Show, Switch, untrack } from "solid-js";
import type { AssistantMessage, Message, Part } from "../../session/message.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import { PermissionPrompt } from "../tools/PermissionPrompt.js";
import { sameList, type ChatState } from "./chat-state.js";
import { Markdown } from "./Markdown.js";
import { AttachmentChip, MessageErrorNote, ReasoningBlock, StepSummary, ToolPartView, type CallControls, type ReplyToPrompt } from "./MessageParts.js";

export interface TranscriptProps {
  state: ChatState;
  prompts: () => readonly PermissionRequest[];
  onReply: ReplyToPrompt;
  onStop: () => void;
  now: () => number;
  calls?: CallControls;
}

function PartView(props: TranscriptProps & { messageID: string; partID: string; streaming: () => boolean }) {
  const part = (): Part | undefined => props.state.part(props.messageID, props.partID);
  const kind = createMemo(() => part()?.type);
  const text = createMemo(() => {
    const current = part();
    return current && (current.type === "text" || current.type === "reasoning") ? current.text : "";
  });
  const field = <T,>(read: (part: Part) => T | undefined) => createMemo(() => {
    const current = part();
    return current ? read(current) : undefined;
  });
  const synthetic = field((p) => (p.type === "text" ? p.synthetic === true : false));
  const reasoningLive = field((p) => (p.type === "reasoning" ? p.time?.end === undefined : false));
  const callID = field((p) => (p.type === "tool" ? p.callID : undefined));
  const toolName = field((p) => (p.type === "tool" ? p.tool : undefined));
  const step = field((p) => (p.type === "step-finish" ? p : undefined));
  const file = field((p) => (p.type === "file" ? p : undefined));
  return (
    <Switch>
      <Match when={kind() === "text" && !synthetic()}>
        <Markdown text={text()} streaming={props.streaming()} />
      </Match>
      <Match when={kind() === "reasoning"}>
        <ReasoningBlock text={text()} live={props.streaming() && reasoningLive() === true} />
      </Match>
      <Match when={callID()}>
        {(id) => <ToolPartView callID={id()} tool={toolName() ?? ""} state={props.state} now={props.now} calls={props.calls} prompts={props.prompts} onReply={props.onReply} onStop={props.onStop} />}
      </Match>
      <Match when={step()}>{(finish) => <StepSummary tokens={finish().tokens} cost={finish().cost} reason={finish().reason} />}</Match>
      <Match when={file()}>{(attached) => <AttachmentChip file={attached()} />}</Match>
    </Switch>
  );
}

function UserMessageView(props: { message: () => Message | undefined }) {
  const texts = createMemo(() => (props.message()?.parts ?? []).flatMap((part) => (part.type === "text" && !part.synthetic ? [part.text] : [])), [], { equals: sameList });
  const files = createMemo(() => (props.message()?.parts ?? []).flatMap((part) => (part.type === "file" ? [part] : [])), [], { equals: sameList });
  const compaction = createMemo(() => (props.message()?.parts ?? []).some((part) => part.type === "compaction"));
  return (
    <article class="chat-message user" data-testid="user-message" aria-label="You">
      <For each={texts()}>{(text) => <p class="chat-user-text">{text}</p>}</For>
      <Show when={compaction()}>
        <p class="chat-step">Asked to compact the conversation into a summary.</p>
      </Show>
      <Show when={files().length > 0}>
        <div class="chat-chips" aria-label="Attachments">
          <For each={files()}>{(file) => <AttachmentChip file={file} />}</For>
        </div>
      </Show>
    </article>
  );
}

function AssistantMessageView(props: TranscriptProps & { id: string }) {
  const message = () => props.state.message(props.id) as AssistantMessage | undefined;
  const partIDs = createMemo(() => (message()?.parts ?? []).map((part) => part.id), [], { equals: sameList });
  const streaming = createMemo(() => {
    const current = message();
    return current !== undefined && current.time.completed === undefined && current.error === undefined && props.state.status().type !== "idle";
  });
  const error = createMemo(() => message()?.error, undefined, { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
  const summary = createMemo(() => message()?.summary === true);
  const label = createMemo(() => {
    const current = message();
    return current ? `${current.agent} · ${current.modelID}` : "";
  });
  return (
    <article class="chat-message assistant" classList={{ streaming: streaming() }} data-testid="assistant-message" aria-label={`Assistant (${label()})`} aria-busy={streaming()}>
      <Show when={summary()}>
        <p class="chat-step">Summary of the conversation so far (the model sees this instead of the messages above).</p>
      </Show>
      <For each={partIDs()}>{(partID) => <PartView {...props} messageID={props.id} partID={partID} streaming={streaming} />}</For>
      <Show when={error()}>{(failed) => <MessageErrorNote error={failed()} />}</Show>
    </article>
  );
}

export function Transcript(props: TranscriptProps) {
  const role = (id: string) => untrack(() => props.state.message(id)?.role);
  // Prompts whose call has no tool part in view (a call run by hand, say) still need an answer here.
  // The parts are looked through only while some prompt waits.
  const loose = createMemo(() => {
    const waiting = props.prompts();
    if (waiting.length === 0) return [];
    const shown = new Set<string>();
    for (const id of props.state.messageIDs()) for (const part of props.state.message(id)?.parts ?? []) if (part.type === "tool") shown.add(part.callID);
    return waiting.filter((request) => !request.tool || !shown.has(request.tool.callID));
  }, [], { equals: sameList });
  // Follows the end of the conversation as it grows, unless the person scrolled up to read.
  let box: HTMLDivElement | undefined;
  let pinned = true;
  // At most once a frame: reading scrollHeight lays the page out, which per streamed delta is what made
  // a long session's frames slow.
  let following = 0;
  createEffect(
    on(props.state.version, () => {
      if (following) return;
      following = requestAnimationFrame(() => {
        following = 0;
        if (box && pinned) box.scrollTop = box.scrollHeight;
      });
    }),
  );
  onCleanup(() => cancelAnimationFrame(following));
  return (
    <div
      class="chat-transcript"
      data-testid="chat-transcript"
      aria-label="Conversation"
      ref={box}
      onScroll={(event) => {
        const el = event.currentTarget;
        pinned = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      <For each={props.state.messageIDs()}>
        {(id) => (
          <Show when={role(id) === "user"} fallback={<AssistantMessageView {...props} id={id} />}>
            <UserMessageView message={() => props.state.message(id)} />
          </Show>
        )}
      </For>
      <Show when={loose().length > 0}>
        <div class="prompt-queue-list" aria-label="Other pending permission prompts" data-testid="chat-loose-prompts">
          <For each={loose()}>
            {(request) => (
              <PermissionPrompt
                request={request}
                position={props.prompts().indexOf(request) + 1}
                total={props.prompts().length}
                onReply={(reply, message, save) => props.onReply(request, reply, message, save)}
              />
            )}
          </For>
        </div>
      </Show>
    </div>
  );
}
