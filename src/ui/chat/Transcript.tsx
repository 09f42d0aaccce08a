/**
 * The conversation: user messages (text, attachments) and assistant messages (reasoning folded, text as
 * markdown, tool calls as the Tools pane's cards with their prompts, step summaries, errors). Messages
 * and parts are keyed by id, and each part reads only its own values, so a streamed delta re-renders the
 * one part it touches; only the messages near the view are drawn (measured once drawn), so a long transcript keeps the page small.
 */
import { defaultRangeExtractor, createVirtualizer, type Range } from "@tanstack/solid-virtual";
import { createEffect, createMemo, For, Match, mergeProps, on, onCleanup, Show, Switch, untrack } from "solid-js";
import type { AssistantMessage, Message, Part } from "../../session/record/message.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import { PermissionPrompt } from "../tools/PermissionPrompt.js";
import { sameList, type ChatState } from "./chat-state.js";
import { Markdown } from "./Markdown.js";
import {
  AttachmentChip,
  MessageErrorNote,
  ReasoningBlock,
  StepSummary,
  ToolPartView,
  type CallControls,
  type ReplyToPrompt,
} from "./MessageParts.js";

export interface TranscriptProps {
  state: ChatState;
  prompts: () => readonly PermissionRequest[];
  onReply: ReplyToPrompt;
  onStop: () => void;
  now: () => number;
  calls?: CallControls;
  /** "Undo from here" on a user message, "Revert this call" on a tool card; absent: no buttons. */
  onUndoFrom?: (messageID: string) => void;
  onRevertCall?: (callID: string) => void;
  /** Whether the buttons are offered now (not while the agent answers). */
  undoReady?: () => boolean;
}

/** Whether each reasoning fold was left open, by part id: a message drawn again opens as it was left. */
type Folds = { folds: Map<string, boolean> };

function PartView(props: TranscriptProps & Folds & { messageID: string; partID: string; streaming: () => boolean }) {
  const part = (): Part | undefined => props.state.part(props.messageID, props.partID);
  const kind = createMemo(() => part()?.type);
  const text = createMemo(() => {
    const current = part();
    return current && (current.type === "text" || current.type === "reasoning") ? current.text : "";
  });
  const field = <T,>(read: (part: Part) => T | undefined) =>
    createMemo(() => {
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
        <ReasoningBlock
          text={text()}
          live={props.streaming() && reasoningLive() === true}
          open={props.folds.get(props.partID) === true}
          onToggle={(open) => props.folds.set(props.partID, open)}
        />
      </Match>
      <Match when={callID()}>
        {(id) => (
          <ToolPartView
            callID={id()}
            tool={toolName() ?? ""}
            state={props.state}
            now={props.now}
            calls={props.calls}
            prompts={props.prompts}
            onReply={props.onReply}
            onStop={props.onStop}
            onRevert={props.onRevertCall && props.undoReady?.() ? props.onRevertCall : undefined}
          />
        )}
      </Match>
      <Match when={step()}>{(finish) => <StepSummary tokens={finish().tokens} cost={finish().cost} reason={finish().reason} />}</Match>
      <Match when={file()}>{(attached) => <AttachmentChip file={attached()} />}</Match>
    </Switch>
  );
}

function UserMessageView(props: { message: () => Message | undefined; onUndo?: () => void }) {
  const texts = createMemo(
    () => (props.message()?.parts ?? []).flatMap((part) => (part.type === "text" && !part.synthetic ? [part.text] : [])),
    [],
    { equals: sameList },
  );
  const files = createMemo(() => (props.message()?.parts ?? []).flatMap((part) => (part.type === "file" ? [part] : [])), [], {
    equals: sameList,
  });
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
      <Show when={props.onUndo}>
        {(undo) => (
          <button
            type="button"
            class="link chat-undo"
            data-testid="undo-from-here"
            title="Set the files back to before this message and put it back in the prompt box"
            onClick={() => undo()()}
          >
            Undo from here
          </button>
        )}
      </Show>
    </article>
  );
}

function AssistantMessageView(props: TranscriptProps & Folds & { id: string }) {
  const message = () => props.state.message(props.id) as AssistantMessage | undefined;
  const partIDs = createMemo(() => (message()?.parts ?? []).map((part) => part.id), [], { equals: sameList });
  const streaming = createMemo(() => {
    const current = message();
    return (
      current !== undefined && current.time.completed === undefined && current.error === undefined && props.state.status().type !== "idle"
    );
  });
  const error = createMemo(() => message()?.error, undefined, { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
  const summary = createMemo(() => message()?.summary === true);
  const label = createMemo(() => {
    const current = message();
    return current ? `${current.agent} · ${current.modelID}` : "";
  });
  return (
    <article
      class="chat-message assistant"
      classList={{ streaming: streaming() }}
      data-testid="assistant-message"
      aria-label={`Assistant (${label()})`}
      aria-busy={streaming()}
    >
      <Show when={summary()}>
        <p class="chat-step">Summary of the conversation so far (the model sees this instead of the messages above).</p>
      </Show>
      <For each={partIDs()}>{(partID) => <PartView {...props} messageID={props.id} partID={partID} streaming={streaming} />}</For>
      <Show when={error()}>{(failed) => <MessageErrorNote error={failed()} />}</Show>
    </article>
  );
}

/** A first guess at a message's height, until it is drawn and measured (a step with five cards is taller). */
const ESTIMATED_MESSAGE_PX = 160;
/** Messages drawn beyond those in view, so a quick scroll does not show blank space. */
const OVERSCAN = 4;
/** How long after a wheel, touch, key or pointer a move up of the transcript counts as the person's. */
const GESTURE_MS = 1000;
/** The keys that scroll the transcript up (Enter or Space on a button inside it answers a prompt instead). */
const SCROLL_KEYS = new Set(["ArrowUp", "PageUp", "Home"]);

function isTextField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

export function Transcript(props: TranscriptProps) {
  const role = (id: string) => untrack(() => props.state.message(id)?.role);
  const folds = new Map<string, boolean>();
  const partProps = mergeProps(props, { folds });
  // Prompts whose call has no tool part in view (a call run by hand, say) still need an answer here.
  // The parts are looked through only while some prompt waits; the messages holding waiting calls stay drawn.
  const waitingAt = createMemo(() => {
    const waiting = props.prompts();
    const at = new Map<string, number>();
    if (waiting.length === 0) return at;
    props.state.messages().forEach((message, index) => {
      for (const part of message.parts) if (part.type === "tool") at.set(part.callID, index);
    });
    return at;
  });
  const loose = createMemo(() => props.prompts().filter((request) => !request.tool || !waitingAt().has(request.tool.callID)), [], {
    equals: sameList,
  });
  const kept = createMemo(
    () =>
      [
        ...new Set(
          props
            .prompts()
            .flatMap((request) => (request.tool && waitingAt().has(request.tool.callID) ? [waitingAt().get(request.tool.callID)!] : [])),
        ),
      ].sort((a, b) => a - b),
    [],
    { equals: sameList },
  );
  let box: HTMLDivElement | undefined;
  // Only the messages near the view are drawn, each measured once drawn: a session of a thousand calls
  // keeps a few dozen cards in the page. Rows are keyed by message id, so a measurement moves a row
  // without drawing it again.
  const virtualizer = createVirtualizer({
    get count() {
      return props.state.messageIDs().length;
    },
    getScrollElement: () => box ?? null,
    estimateSize: () => ESTIMATED_MESSAGE_PX,
    getItemKey: (index) => untrack(() => props.state.messageIDs()[index] ?? index),
    overscan: OVERSCAN,
    // A new extractor for each change of the waiting prompts redraws the range, so a waiting call's message
    // is drawn wherever the view is. (measure() would redraw it too, but it forgets every row's measured
    // height, and rows already drawn are not measured again: they sat at the estimate, overlapping.)
    get rangeExtractor() {
      const keep = kept();
      return (range: Range) => {
        const shown = defaultRangeExtractor(range);
        const extra = keep.filter((index) => index < range.count && !shown.includes(index));
        return extra.length === 0 ? shown : [...shown, ...extra].sort((a, b) => a - b);
      };
    },
  });
  const rows = createMemo(() => new Map(virtualizer.getVirtualItems().map((item) => [String(item.key), item])));
  const drawn = createMemo(() => [...rows().keys()], [], { equals: sameList });
  // Follows the end of the conversation as it grows, unless the person scrolled up to read. Only a move up
  // right after their wheel, touch, key or pointer counts: rows measured as they are drawn move the end
  // under a scroll this component made, and that must not read as the person leaving the end.
  let pinned = true;
  let lastTop = 0;
  let gestureAt = Number.NEGATIVE_INFINITY;
  const gesture = () => {
    gestureAt = performance.now();
  };
  // At most once a frame: reading scrollHeight lays the page out, which per streamed delta is what made
  // a long session's frames slow.
  let following = 0;
  const follow = () => {
    if (following) return;
    following = requestAnimationFrame(() => {
      following = 0;
      if (box && pinned) box.scrollTop = box.scrollHeight;
    });
  };
  createEffect(on(props.state.version, follow));
  // A drawn message measuring taller than guessed moves the end too.
  createEffect(on(() => virtualizer.getTotalSize(), follow, { defer: true }));
  // A call that starts waiting for an answer is brought into view, so its prompt can be answered.
  let seen = new Set<string>();
  createEffect(
    on(props.prompts, (waiting) => {
      const fresh = waiting.filter((request) => !seen.has(request.id));
      seen = new Set(waiting.map((request) => request.id));
      const callID = fresh.find((request) => request.tool && waitingAt().has(request.tool.callID))?.tool?.callID;
      if (!callID || !box) return;
      const scroller = box;
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const prompt = scroller.querySelector(`[data-call="${CSS.escape(callID)}"] [data-testid=permission-prompt]`);
          prompt?.scrollIntoView?.({ block: "nearest" });
        }),
      );
    }),
  );
  onCleanup(() => cancelAnimationFrame(following));
  return (
    <div
      class="chat-transcript"
      data-testid="chat-transcript"
      aria-label="Conversation"
      data-messages={props.state.messageIDs().length}
      ref={box}
      onScroll={(event) => {
        const el = event.currentTarget;
        const top = el.scrollTop;
        if (el.scrollHeight - top - el.clientHeight < 48) pinned = true;
        else if (top < lastTop && performance.now() - gestureAt < GESTURE_MS) pinned = false;
        lastTop = top;
      }}
      onWheel={gesture}
      onTouchMove={gesture}
      // The scroll bar is the box itself; a press on a button inside (Reject, say) is no scroll, and the
      // row shrinking under it must not unpin the view.
      onPointerDown={(event) => event.target === event.currentTarget && gesture()}
      onKeyDown={(event) => SCROLL_KEYS.has(event.key) && !isTextField(event.target) && gesture()}
    >
      <div class="chat-rows" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        <For each={drawn()}>
          {(id) => {
            const row = () => rows().get(id);
            // The virtualizer keeps each drawn row to watch its size; a row taken out must not stay held.
            onCleanup(() => queueMicrotask(() => virtualizer.measureElement(null)));
            return (
              <div
                class="chat-row"
                data-index={row()?.index}
                data-message={id}
                ref={(el) => queueMicrotask(() => el.isConnected && virtualizer.measureElement(el))}
                style={{ transform: `translateY(${row()?.start ?? 0}px)` }}
              >
                <Show when={role(id) === "user"} fallback={<AssistantMessageView {...partProps} id={id} />}>
                  <UserMessageView
                    message={() => props.state.message(id)}
                    onUndo={props.onUndoFrom && props.undoReady?.() ? () => props.onUndoFrom!(id) : undefined}
                  />
                </Show>
              </div>
            );
          }}
        </For>
      </div>
      <Show when={loose().length > 0}>
        <div class="prompt-queue-list" aria-label="Other pending permission prompts" data-testid="chat-loose-prompts">
          <For each={loose()}>
            {(request) => (
              <PermissionPrompt
                request={request}
                call={request.tool ? props.state.call(request.tool.callID) : undefined}
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
