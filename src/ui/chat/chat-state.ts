/**
 * The ChatView as Solid signals. The view announces every change through one `onChange` (a text delta
 * included) and may mutate its records in place, so everything here is read through one version
 * signal and narrowed by memos that compare values, not objects: a delta to the last message's text
 * wakes only what reads that text.
 */
import { createEffect, createMemo, createSignal, getOwner, on, onCleanup, runWithOwner, type Accessor } from "solid-js";
import type { ToolCall } from "../../session/calls.js";
import type { ChatStatus, ChatView, ModelChoice } from "../../session/chat-types.js";
import type { Message, Part } from "../../session/message.js";

export const sameList = <T,>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, index) => item === b[index]);

export interface ChatState {
  /** Moves on every change the view announces. */
  version: Accessor<number>;
  messageIDs: Accessor<readonly string[]>;
  message(id: string): Message | undefined;
  part(messageID: string, partID: string): Part | undefined;
  call(callID: string): ToolCall | undefined;
  /** Moves only when that call's record changed in a way a card shows. */
  callVersion(callID: string): Accessor<number>;
  status: Accessor<ChatStatus>;
  agent: Accessor<string>;
  models: Accessor<ModelChoice[]>;
  model: Accessor<ModelChoice | undefined>;
}

/** A cheap summary of what a call card shows; long strings count by length, since they only grow. */
export function callFingerprint(call: ToolCall | undefined): string {
  if (!call) return "";
  const meta = Object.entries(call.metadata)
    .map(([key, value]) => `${key}:${typeof value === "string" ? value.length : JSON.stringify(value)}`)
    .join(",");
  const asks = call.permissions.map((p) => p.answer).join(",");
  return [call.status, call.title, call.output?.length ?? -1, call.error ?? "", meta, asks, call.time.start ?? "", call.time.end ?? "", call.attachments?.length ?? 0].join("|");
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
  const callVersions = new Map<string, Accessor<number>>();
  // A call's memo outlives the card that first asked for it (a transcript re-rendered keeps it).
  const owner = getOwner();
  const models = createMemo(() => (version(), chat().models()), [], { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
  return {
    version,
    messageIDs,
    message: (id) => byID().get(id),
    part: (messageID, partID) => byID().get(messageID)?.parts.find((part) => part.id === partID),
    call: (callID) => (version(), chat().call(callID)),
    callVersion(callID) {
      let found = callVersions.get(callID);
      if (!found) {
        found = runWithOwner(owner, () => {
          const print = createMemo(() => (version(), callFingerprint(chat().call(callID))));
          let moves = 0;
          return createMemo(() => (print(), ++moves));
        })!;
        callVersions.set(callID, found);
      }
      return found;
    },
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
