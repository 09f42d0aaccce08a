/**
 * The ChatView as Solid signals. The view announces every change through one `onChange` (a text delta
 * included) and may mutate its records in place, so everything here is read through one version
 * signal and narrowed by memos that compare values, not objects: a delta to the last message's text
 * wakes only what reads that text.
 */
import { createEffect, createMemo, createRoot, createSignal, getOwner, on, onCleanup, untrack, type Accessor, type Owner } from "solid-js";
import type { ToolCall } from "../../session/record/session-record.js";
import type { ChatStatus, ChatView, ModelChoice } from "../../session/chat/chat-view.js";
import type { Message, Part } from "../../session/record/message.js";

export const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, index) => item === b[index]);

export interface ChatState {
  /** Moves on every change the view announces. */
  version: Accessor<number>;
  messageIDs: Accessor<readonly string[]>;
  /** All messages; moves on every change, so read it only while it is needed (a prompt waiting). */
  messages: Accessor<readonly Message[]>;
  /** The message as it is now; reading it depends only on that message's own changes. */
  message(id: string): Message | undefined;
  part(messageID: string, partID: string): Part | undefined;
  /** A call's record now; not reactive by itself: read `callVersion(callID)` to follow it. */
  call(callID: string): ToolCall | undefined;
  /** Moves only when that call's record changed in a way a card shows. */
  callVersion(callID: string): Accessor<number>;
  status: Accessor<ChatStatus>;
  agent: Accessor<string>;
  models: Accessor<ModelChoice[]>;
  model: Accessor<ModelChoice | undefined>;
}

/** Strings only grow while a call streams, so their length tells; objects by their size, never serialised. */
function shapeOf(value: unknown): string {
  if (typeof value === "string") return `s${value.length}`;
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? `a${value.length}` : `o${Object.keys(value).length}`;
}

/** What changes in a message as it streams: its parts (ids, text lengths, ends) and its outcome. */
function messageFingerprint(message: Message | undefined): string {
  if (!message) return "";
  const parts = message.parts.map((part) =>
    part.type === "text" || part.type === "reasoning"
      ? `${part.id}:${part.text.length}:${part.time?.end ?? ""}`
      : `${part.id}:${part.type}`,
  );
  const outcome =
    message.role === "assistant"
      ? `${message.time.completed ?? ""}|${message.finish ?? ""}|${message.error?.kind ?? ""}:${message.error?.message ?? ""}|${message.summary ?? ""}`
      : "";
  return `${outcome}|${parts.join(",")}`;
}

/** A cheap summary of what a call card shows; long strings count by length, since they only grow. */
function callFingerprint(call: ToolCall | undefined): string {
  if (!call) return "";
  const meta = Object.entries(call.metadata)
    .map(([key, value]) => `${key}:${shapeOf(value)}`)
    .join(",");
  const asks = call.permissions.map((p) => p.answer).join(",");
  return [
    call.status,
    call.title,
    call.output?.length ?? -1,
    call.error ?? "",
    meta,
    asks,
    call.time.start ?? "",
    call.time.end ?? "",
    call.attachments?.length ?? 0,
  ].join("|");
}

/** A per-id memo and how many live owners read it; the last one going releases it. */
interface Held<T> {
  read: Accessor<T>;
  dispose: () => void;
  users: number;
}

/**
 * The memo for `id`, made on first use in a root of its own. Each reading owner counts as a user until it
 * is cleaned up; once none is left (checked a microtask later, so a memo re-running keeps what it reads)
 * the memo is disposed and forgotten: messages scrolled out of view and finished calls hold nothing.
 */
function holdFor<T>(map: Map<string, Held<T>>, id: string, parent: Owner | null, make: () => Accessor<T>): Accessor<T> {
  let held = map.get(id);
  if (!held) {
    held = createRoot((dispose) => ({ read: make(), dispose, users: 0 }), parent ?? undefined);
    map.set(id, held);
  }
  const user = getOwner();
  if (user && user !== parent) {
    const mine = held;
    mine.users++;
    onCleanup(() => {
      if (--mine.users > 0) return;
      queueMicrotask(() => {
        if (mine.users > 0 || map.get(id) !== mine) return;
        map.delete(id);
        mine.dispose();
      });
    });
  }
  return held.read;
}

export function createChatState(chat: Accessor<ChatView>): ChatState {
  const [version, bump] = createSignal(0);
  let count = 0;
  createEffect(
    on(chat, (view) => {
      const off = view.onChange(() => bump(++count));
      bump(++count);
      onCleanup(off);
    }),
  );
  const messages = createMemo(() => (version(), chat().messages()), undefined, { equals: false });
  const byID = createMemo(() => new Map(messages().map((message) => [message.id, message])), undefined, { equals: false });
  const messageIDs = createMemo(() => messages().map((message) => message.id), [], { equals: sameList });
  // Per-call and per-message memos outlive the component that first asked for them.
  const owner = getOwner();
  const callVersions = new Map<string, Held<number>>();
  const messageReaders = new Map<string, Held<Message | undefined>>();
  onCleanup(() => {
    for (const held of [...callVersions.values(), ...messageReaders.values()]) held.dispose();
    callVersions.clear();
    messageReaders.clear();
  });
  const settledMessages = new Set<string>();
  const settledCalls = new Set<string>();
  // A new view (another session) starts from scratch: nothing of it is known to be final yet.
  createEffect(on(chat, () => (settledMessages.clear(), settledCalls.clear()), { defer: true }));
  const fingerprintMessage = (id: string): string => {
    const current = byID().get(id);
    if (current?.role === "assistant" && (current.time.completed !== undefined || current.error !== undefined)) settledMessages.add(id);
    return messageFingerprint(current);
  };
  // One reader per message: a delta to one message wakes that message's parts and no other message's.
  const message = (id: string): Message | undefined =>
    holdFor(messageReaders, id, owner, () => {
      // A finished assistant message no longer changes: its memos stop following the version, so a
      // long transcript costs each delta nothing per finished message.
      const print = createMemo<string>((previous) =>
        previous !== undefined && settledMessages.has(id) ? previous : fingerprintMessage(id),
      );
      return createMemo(() => (print(), untrack(() => byID().get(id))), undefined, { equals: false });
    })();
  const models = createMemo(() => (version(), chat().models()), [], { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
  return {
    version,
    messageIDs,
    messages,
    message,
    part: (messageID, partID) => message(messageID)?.parts.find((part) => part.id === partID),
    // Untracked: readers depend on `callVersion`, which moves only when the card would show something new.
    call: (callID) => untrack(() => chat().call(callID)),
    callVersion: (callID) =>
      holdFor(callVersions, callID, owner, () => {
        // A call that has completed or failed is final; its card stops listening to every delta.
        const print = createMemo<string>((previous) => {
          if (previous !== undefined && settledCalls.has(callID)) return previous;
          version();
          const call = chat().call(callID);
          if (call && (call.status === "completed" || call.status === "error")) settledCalls.add(callID);
          return callFingerprint(call);
        });
        let moves = 0;
        return createMemo(() => (print(), ++moves));
      }),
    status: createMemo(() => (version(), chat().status()), undefined, { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) }),
    agent: createMemo(() => (version(), chat().agent())),
    models,
    model: createMemo(() => {
      version();
      const ref = chat().model();
      return ref ? models().find((choice) => choice.providerID === ref.providerID && choice.modelID === ref.modelID) : undefined;
    }),
  };
}
