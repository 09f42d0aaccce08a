import { createSignal, For, Show } from "solid-js";
import type { SessionSummary } from "../../session/record/key-value-session-store.js";

function when(createdAt: number): string {
  return new Date(createdAt).toLocaleString();
}

/**
 * The session picker: which session the cards are from, a new one, and renaming or deleting the
 * current one (deleting asks once more, in place, since it takes the calls with it).
 */
export function SessionBar(props: {
  sessions: () => SessionSummary[];
  currentID: () => string | undefined;
  busy: () => boolean;
  onSwitch: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
}) {
  const [renaming, setRenaming] = createSignal(false);
  const [confirming, setConfirming] = createSignal(false);
  const [name, setName] = createSignal("");
  const current = () => props.sessions().find((session) => session.id === props.currentID());
  const startRename = () => {
    setName(current()?.title ?? "");
    setConfirming(false);
    setRenaming(true);
  };
  const submitRename = (event: SubmitEvent) => {
    event.preventDefault();
    const id = props.currentID();
    if (id) props.onRename(id, name());
    setRenaming(false);
  };
  return (
    <div class="session-bar" data-testid="session-bar">
      <label class="session-choice">
        Session
        <select
          aria-label="Session"
          data-testid="session-picker"
          disabled={props.busy()}
          onChange={(event) => props.onSwitch(event.currentTarget.value)}
        >
          {/* Keyed by id: the summaries are new objects at every call update, the options need not be. */}
          <For each={props.sessions().map((session) => session.id)}>
            {(id) => {
              const session = () => props.sessions().find((summary) => summary.id === id);
              return (
                <option value={id} selected={id === props.currentID()} title={`Started ${when(session()?.createdAt ?? 0)}`}>
                  {(session()?.title || "Untitled") + (session()?.waiting ? ` (${session()!.waiting} waiting for you)` : "")}
                </option>
              );
            }}
          </For>
        </select>
      </label>
      <span class="session-count" data-testid="session-count">
        {current()?.calls ?? 0} {current()?.calls === 1 ? "call" : "calls"}
      </span>
      <button
        type="button"
        class="button"
        disabled={props.busy()}
        onClick={() => props.onNew()}
        title="Start a fresh session (reads opencode.json again; approvals are forgotten)"
      >
        New session
      </button>
      <Show
        when={renaming()}
        fallback={
          <button type="button" class="button" disabled={props.busy() || !current()} onClick={startRename}>
            Rename
          </button>
        }
      >
        <form class="session-rename" onSubmit={submitRename}>
          <input
            type="text"
            aria-label="Session name"
            value={name()}
            onInput={(event) => setName(event.currentTarget.value)}
            ref={(el) => queueMicrotask(() => el.focus())}
          />
          <button type="submit" class="button">
            Save name
          </button>
          <button type="button" class="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      </Show>
      <Show
        when={confirming()}
        fallback={
          <button
            type="button"
            class="button"
            disabled={props.busy() || !current()}
            onClick={() => (setRenaming(false), setConfirming(true))}
          >
            Delete session
          </button>
        }
      >
        <span class="session-confirm" role="group" aria-label="Confirm deletion">
          Delete “{current()?.title}” and its calls?
          <button
            type="button"
            class="button danger"
            onClick={() => {
              const id = props.currentID();
              setConfirming(false);
              if (id) props.onDelete(id);
            }}
          >
            Delete
          </button>
          <button type="button" class="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      </Show>
    </div>
  );
}
