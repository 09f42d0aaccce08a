/**
 * Undo in the chat: what "Undo from here", "Revert this call" and Redo did, asked or found in
 * the way, shown above the prompt box, with the staged undo's Redo (also Ctrl+Shift+Z) until the next send.
 */
import { createEffect, createSignal, on, onCleanup, Show } from "solid-js";
import type { SessionUndo, StagedUndo, UndoOutcome } from "../../page/session-undo.js";
import { errorMessage } from "../../base/error-message.js";

export interface UndoControls {
  outcome: () => UndoOutcome | undefined;
  staged: () => StagedUndo | undefined;
  /** The undone message's text, for the prompt box (a new object at each undo). */
  draft: () => { text: string } | undefined;
  working: () => boolean;
  undoFrom(messageID: string): void;
  revertCall(callID: string): void;
  redo(): void;
  settle(outcome: Promise<UndoOutcome>): void;
  dismiss(): void;
  /** Before a send: a staged undo is committed. */
  commit(): void;
}

export function createUndoControls(undo: () => SessionUndo | undefined): UndoControls {
  const [outcome, setOutcome] = createSignal<UndoOutcome>();
  const [staged, setStaged] = createSignal<StagedUndo>();
  const [draft, setDraft] = createSignal<{ text: string }>();
  const [working, setWorking] = createSignal(false);
  createEffect(
    on(undo, (current) => {
      setStaged(current?.staged());
      setOutcome(undefined);
      if (!current) return;
      onCleanup(current.onChange(() => setStaged(current.staged())));
    }),
  );
  /** The staged undo the box was last filled for: a new one (or one confirmed later) fills it, once. */
  let filledFor: string | undefined;
  const settle = (pending: Promise<UndoOutcome>) => {
    setWorking(true);
    pending
      .then(
        (result) => {
          setOutcome(result);
          const now = undo()?.staged();
          if (now && now.messageID !== filledFor) setDraft({ text: now.text });
          if (!now && filledFor !== undefined) setDraft({ text: "" });
          filledFor = now?.messageID;
        },
        (error: unknown) => setOutcome({ status: "unavailable", note: `Undo failed: ${errorMessage(error)}` }),
      )
      .finally(() => setWorking(false));
  };
  const controls: UndoControls = {
    outcome,
    staged,
    draft,
    working,
    settle,
    undoFrom: (messageID) => {
      const current = undo();
      if (!current || working()) return;
      settle(current.undoFrom(messageID));
    },
    revertCall: (callID) => {
      const current = undo();
      if (current && !working()) settle(current.revertCall(callID));
    },
    redo: () => {
      const current = undo();
      if (!current || working() || !current.staged()) return;
      settle(current.redo());
    },
    dismiss: () => setOutcome(undefined),
    commit: () => {
      undo()?.commit();
      filledFor = undefined;
      setOutcome(undefined);
    },
  };
  const onKey = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || !event.shiftKey || event.key.toLowerCase() !== "z" || !staged()) return;
    event.preventDefault();
    controls.redo();
  };
  document.addEventListener("keydown", onKey);
  onCleanup(() => document.removeEventListener("keydown", onKey));
  return controls;
}

export function UndoBar(props: { controls: UndoControls }) {
  const c = props.controls;
  return (
    <>
      <Show when={c.outcome()}>
        {(result) => (
          <div
            class={`chat-undo-note ${result().status}`}
            data-testid="undo-outcome"
            data-status={result().status}
            role={result().status === "needs-confirmation" ? "alertdialog" : "status"}
            aria-label="Undo"
          >
            <Show
              when={result().status === "needs-confirmation" && result()}
              fallback={<p>{"note" in result() ? (result() as { note: string }).note : ""}</p>}
            >
              {(asking) => (
                <p>
                  These files were changed by hand since, and undoing would take that back:{" "}
                  <strong data-testid="undo-overwrites">{(asking() as { paths: string[] }).paths.join(", ")}</strong>
                </p>
              )}
            </Show>
            <div class="chat-undo-actions">
              <Show when={result().status === "needs-confirmation" && result()}>
                {(asking) => (
                  <button
                    type="button"
                    class="button danger"
                    data-testid="undo-confirm"
                    disabled={c.working()}
                    onClick={() => c.settle((asking() as { confirm(): Promise<UndoOutcome> }).confirm())}
                  >
                    Overwrite them
                  </button>
                )}
              </Show>
              <Show when={result().status === "conflict" && result()}>
                {(conflict) => (
                  <button
                    type="button"
                    class="button"
                    data-testid="revert-from-here"
                    disabled={c.working()}
                    onClick={() => c.settle((conflict() as { fromHere(): Promise<UndoOutcome> }).fromHere())}
                  >
                    Revert from this call on
                  </button>
                )}
              </Show>
              <button type="button" class="button" data-testid="undo-dismiss" onClick={() => c.dismiss()}>
                {result().status === "needs-confirmation" ? "Keep my edits" : "Close"}
              </button>
            </div>
          </div>
        )}
      </Show>
      <Show when={c.staged()}>
        <div class="chat-undo-staged" data-testid="undo-staged" role="status">
          <p>The files are back as they were before your message, which is back in the box: send it (or another) to continue from there.</p>
          <button type="button" class="button" data-testid="redo" disabled={c.working()} onClick={() => c.redo()} title="Ctrl+Shift+Z">
            Redo
          </button>
        </div>
      </Show>
    </>
  );
}
