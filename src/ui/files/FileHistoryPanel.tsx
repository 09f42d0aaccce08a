import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import type { FileHistory, FileHistoryVersion } from "../../page/file-history.js";
import { DiffView } from "../tools/DiffView.js";

const timeOf = (ms: number) => new Date(ms).toLocaleTimeString();
const sizeOf = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

function stateLabel(version: FileHistoryVersion): string {
  const state = version.state;
  if (state.kind === "file") return sizeOf(state.size);
  return state.kind === "deleted" ? "deleted" : state.what;
}

interface Compared {
  version: FileHistoryVersion;
  diff?: string;
  note?: string;
  now: Uint8Array | undefined;
}

/**
 * A file's versions (newest first, by call, by hand, by an undo), a diff from the chosen one to the file
 * as it is now, and Restore, which asks once and refuses while the editor holds unsaved text or when the
 * file changed since the diff was shown.
 */
export function FileHistoryPanel(props: {
  history: FileHistory;
  /** The checkpoint count, read again while the panel is open so new versions appear. */
  head: () => number;
  dirty: () => boolean;
  readOnly: boolean;
  onClose: () => void;
}) {
  const [versions, setVersions] = createSignal(props.history.versions());
  const [chosen, setChosen] = createSignal<Compared>();
  const [confirming, setConfirming] = createSignal(false);
  const [message, setMessage] = createSignal<string>();
  let seenHead = props.head();

  onMount(() => {
    // Checkpoints are recorded when a call ends, after the write the editor saw: look again now and then.
    const timer = setInterval(() => {
      if (props.head() === seenHead) return;
      seenHead = props.head();
      setVersions(props.history.versions());
    }, 1_000);
    onCleanup(() => clearInterval(timer));
  });

  const choose = async (version: FileHistoryVersion) => {
    setConfirming(false);
    setMessage(undefined);
    setChosen({ version, ...(await props.history.compare(version)) });
  };

  const restore = async () => {
    const current = chosen();
    if (!current) return;
    setConfirming(false);
    if (props.dirty()) return void setMessage("Save or reload the editor's text first: restoring would replace it.");
    const outcome = await props.history.restore(current.version, current.now);
    if (outcome.status === "refused") return void setMessage(outcome.message);
    // Compared again, so the diff shows the file as restored; the message comes after (choosing clears it).
    await choose(current.version);
    setMessage(`Restored the version of ${timeOf(current.version.time)}.`);
  };

  return (
    <section class="file-history" aria-label="File history" data-testid="file-history">
      <div class="file-history-head">
        <strong>History</strong>
        <span class="file-history-hint">each version this workspace recorded, newest first</span>
        <button type="button" class="dismiss" aria-label="Close history" onClick={() => props.onClose()}>
          ×
        </button>
      </div>
      <Show when={versions().length > 0} fallback={<p class="file-history-empty">No versions recorded for this file yet.</p>}>
        <ol class="file-history-list">
          <For each={versions()}>
            {(version) => (
              <li>
                <button
                  type="button"
                  class="file-history-version"
                  aria-pressed={chosen()?.version.seq === version.seq}
                  onClick={() => void choose(version)}
                  data-testid="file-history-version"
                  data-by-hand={String(version.byHand)}
                >
                  <span class="file-history-time">{timeOf(version.time)}</span>
                  <span class="file-history-by">{version.by}</span>
                  <span class="file-history-size">{stateLabel(version)}</span>
                </button>
              </li>
            )}
          </For>
        </ol>
      </Show>
      <Show when={chosen()}>
        {(current) => (
          <div class="file-history-detail" data-testid="file-history-detail">
            <Show when={current().note}>{(note) => <p>{note()}</p>}</Show>
            <Show when={current().diff === ""}>
              <p data-testid="file-history-same">This version is the file as it is now.</p>
            </Show>
            <Show when={current().diff}>{(diff) => <DiffView diff={diff()} label="From this version to now" />}</Show>
            <Show when={!props.readOnly && current().version.state.kind === "file" && current().diff !== ""}>
              <Show
                when={confirming()}
                fallback={
                  <button type="button" class="button" onClick={() => setConfirming(true)} data-testid="file-history-restore">
                    Restore this version…
                  </button>
                }
              >
                <span>Replace the file's current text with this version?</span>
                <button type="button" class="button primary" onClick={() => void restore()} data-testid="file-history-confirm">
                  Restore
                </button>
                <button type="button" class="button" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </Show>
            </Show>
          </div>
        )}
      </Show>
      <Show when={message()}>
        {(text) => (
          <p role="status" class="file-history-message" data-testid="file-history-message">
            {text()}
          </p>
        )}
      </Show>
    </section>
  );
}
