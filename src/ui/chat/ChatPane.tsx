/**
 * The chat: pickers and keys on top, the transcript, the turn's status (busy with its step, a retry
 * counting down, ready), and the prompt box. Everything comes in through props, so App decides where
 * the conversation, the prompts, the workspace's files and the keys come from.
 */
import { createEffect, createMemo, createSignal, For, on, onCleanup, Show } from "solid-js";
import type { ChatView } from "../../session/chat/chat-view.js";
import type { SessionUndo } from "../../page/session-undo.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import "./chat.css";
import { createChatState, sameList } from "./chat-state.js";
import { elapsedText, nextAgent, notReadyReason, statusText } from "./chat-text.js";
import type { CallControls, ReplyToPrompt } from "./MessageParts.js";
import { AgentPicker, ModelPicker } from "./Pickers.js";
import { PromptBox } from "./PromptBox.js";
import { ProviderDialog, type ProviderKeyInput, type ProviderKeyStatus } from "./ProviderDialog.js";
import { SessionToolsContext } from "./session-tools-context.js";
import { TodoList } from "./TodoList.js";
import { Transcript } from "./Transcript.js";
import { createUndoControls, UndoBar } from "./UndoBar.js";
import { Welcome } from "./Welcome.js";

export interface ChatPaneProps {
  chat: ChatView;
  /** Pending permission prompts (PageTools.pending()); must be reactive (a signal App moves when prompts come and go). */
  prompts: () => readonly PermissionRequest[];
  onReply: ReplyToPrompt;
  /** Workspace paths starting with `prefix`, for @ completion (folders end with "/"). */
  listFiles: (prefix: string) => Promise<string[]>;
  providers: () => readonly ProviderKeyStatus[];
  onSaveKey: (input: ProviderKeyInput) => void | Promise<void>;
  onRemoveKey: (providerID: string) => void | Promise<void>;
  /** The key dialog is asked for from outside (must be reactive); `onKeysOpened` says it was opened. */
  keysWanted?: () => boolean;
  onKeysOpened?: () => void;
  /** Abort one call, tell an aborted call, open a saved output (PageTools has all three); without it Abort stops the turn. */
  calls?: CallControls;
  /** Undo from a message, revert a call, redo; absent where the workspace keeps no checkpoints. */
  undo?: SessionUndo;
}

export function ChatPane(props: ChatPaneProps) {
  // The subagent sessions opened from task cards, outermost first; empty while the main session shows.
  const [trail, setTrail] = createSignal<string[]>([]);
  createEffect(
    on(
      () => props.chat,
      () => setTrail([]),
      { defer: true },
    ),
  );
  const view = createMemo((): ChatView => {
    const last = trail().at(-1);
    return (last !== undefined ? props.chat.child?.(last) : undefined) ?? props.chat;
  });
  const state = createChatState(view);
  // Undo works on the main session's files: a subagent's session shows no undo.
  const undo = createUndoControls(() => (trail().length === 0 ? props.undo : undefined));
  const crumbs = createMemo(() => {
    const views = [props.chat, ...trail().map((id) => props.chat.child?.(id))];
    return views.map((one, index) => ({ index, title: (index === 0 ? "Main session" : one?.title?.()) || "Subagent session" }));
  });
  const todos = () => (state.version(), view().todos?.() ?? []);
  const [keysOpen, setKeysOpen] = createSignal(false);
  const [now, setNow] = createSignal(Date.now());
  // When the turn left idle: a slow or failing provider shows how long it has been going.
  const [busySince, setBusySince] = createSignal(Date.now());
  let opener: HTMLElement | null = null;

  // The clock moves only while something shows time passing: running calls' elapsed time, a retry countdown.
  createEffect(
    on(
      () => state.status().type,
      (type, previous) => {
        if (type === "idle") return;
        setNow(Date.now());
        if (previous === undefined || previous === "idle") setBusySince(Date.now());
        const timer = setInterval(() => setNow(Date.now()), 250);
        onCleanup(() => clearInterval(timer));
      },
    ),
  );

  const agents = createMemo(() => (state.version(), props.chat.agents()), [], {
    equals: (a, b) =>
      sameList(
        a.map((agent) => agent.name),
        b.map((agent) => agent.name),
      ),
  });
  // Read again on every chat change too: a tool asking is a change the chat announces.
  const prompts = () => (state.version(), props.prompts());
  const announcement = createMemo(() => {
    const status = state.status();
    return status.type === "retry" ? `Retrying (attempt ${status.attempt}): ${status.message}` : statusText(status, 0);
  });
  const busy = () => state.status().type !== "idle";
  const reason = createMemo(() => notReadyReason(state.models(), state.model()));
  const noKey = createMemo(() => !state.models().some((model) => model.ready));
  const openKeys = () => {
    opener = document.activeElement as HTMLElement | null;
    setKeysOpen(true);
  };
  // Asked for from outside the pane (the page's first-visit welcome).
  createEffect(() => {
    if (!props.keysWanted?.()) return;
    props.onKeysOpened?.();
    openKeys();
  });
  const closeKeys = () => {
    setKeysOpen(false);
    opener?.focus();
  };
  const cycleAgent = () => {
    const next = nextAgent(agents(), state.agent());
    if (next && next !== state.agent()) props.chat.setAgent(next);
  };

  return (
    <section class="chat-pane" aria-label="Chat" data-testid="chat-pane">
      <header class="chat-head">
        {/* A subagent's session keeps its agent and model: the pickers are the main session's. */}
        <Show when={!view().readOnly}>
          <AgentPicker agents={agents()} current={state.agent()} onPick={(name) => props.chat.setAgent(name)} />
          <ModelPicker
            models={state.models()}
            current={state.model() ?? (state.version(), props.chat.model())}
            onPick={(model) => props.chat.setModel(model)}
          />
        </Show>
        <span class="spacer" />
        <button type="button" class="button" aria-haspopup="dialog" data-testid="open-keys" onClick={openKeys}>
          Keys…
        </button>
      </header>
      <Show when={trail().length > 0}>
        <nav class="chat-breadcrumb" aria-label="Sessions" data-testid="chat-breadcrumb">
          <button type="button" class="button" data-testid="breadcrumb-back" onClick={() => setTrail((all) => all.slice(0, -1))}>
            ← Back
          </button>
          <ol role="list">
            <For each={crumbs()}>
              {(crumb) => (
                <li>
                  <Show when={crumb.index < trail().length} fallback={<span aria-current="page">{crumb.title}</span>}>
                    <button type="button" class="link" onClick={() => setTrail((all) => all.slice(0, crumb.index))}>
                      {crumb.title}
                    </button>
                  </Show>
                </li>
              )}
            </For>
          </ol>
        </nav>
      </Show>
      <TodoList todos={todos()} />
      <SessionToolsContext.Provider value={{ view, openChild: (id) => setTrail((all) => [...all, id]) }}>
        <Show
          when={noKey() && state.messageIDs().length === 0 && trail().length === 0}
          fallback={
            <Transcript
              state={state}
              prompts={prompts}
              onReply={props.onReply}
              onStop={() => props.chat.stop()}
              now={now}
              calls={props.calls}
              onUndoFrom={props.undo ? (id) => undo.undoFrom(id) : undefined}
              onRevertCall={props.undo ? (id) => undo.revertCall(id) : undefined}
              undoReady={() => trail().length === 0 && !busy() && !undo.working()}
            />
          }
        >
          <Welcome />
        </Show>
      </SessionToolsContext.Provider>
      <div class={`chat-status status-${state.status().type}`} data-testid="chat-status" data-status={state.status().type}>
        <Show when={busy()}>
          <span class="chat-spinner" aria-hidden="true" />
        </Show>
        {/* The ticking countdown is for the eyes; a screen reader hears each state once. */}
        <span aria-hidden="true" data-testid="chat-status-text">
          {statusText(state.status(), now())}
        </span>
        <Show when={busy()}>
          <span class="chat-elapsed" aria-hidden="true" data-testid="chat-elapsed">
            {elapsedText(now() - busySince())}
          </span>
        </Show>
        <Show when={state.status().type === "retry"}>
          <button type="button" class="button chat-stop-retrying" data-testid="stop-retrying" onClick={() => props.chat.stop()}>
            Stop retrying
          </button>
        </Show>
        <span class="visually-hidden" role="status">
          {announcement()}
        </span>
      </div>
      <UndoBar controls={undo} />
      <Show when={!view().readOnly}>
        <PromptBox
          busy={busy}
          disabledReason={reason}
          acceptsImages={() => state.model()?.attachment === true}
          modelName={() => state.model()?.name}
          agent={state.agent}
          listFiles={(prefix) => props.listFiles(prefix)}
          onSend={(input) => {
            undo.commit();
            return props.chat.send(input);
          }}
          draft={undo.draft}
          onStop={() => props.chat.stop()}
          onCycleAgent={cycleAgent}
        />
      </Show>
      <Show when={keysOpen()}>
        <ProviderDialog
          providers={props.providers()}
          onSave={props.onSaveKey}
          onRemove={props.onRemoveKey}
          onClose={closeKeys}
          initial={state.model()?.providerID}
        />
      </Show>
    </section>
  );
}
