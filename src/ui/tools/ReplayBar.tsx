import { createSignal, onCleanup, Show } from "solid-js";
import { CallListError, parseCallList } from "../../session/record/call-list.js";
import type { ReplayProgress } from "../../page/replay.js";
import { replayCalls, type CallStarter } from "../../page/replay.js";
import { errorMessage } from "../../base/error-message.js";

const FORMAT_HINT = 'Choose a file like the ones `workbench calls` reads: [{ "tool": "read", "args": { "filePath": "a.txt" } }, ...].';

type ReplayState =
  | { phase: "idle" }
  | { phase: "running"; file: string; progress: ReplayProgress }
  | { phase: "over"; file: string; progress: ReplayProgress; stopped: boolean }
  | { phase: "invalid"; message: string };

/** Import a calls file (the CLI's format) and replay it into the current session, with progress and Stop. */
export function ReplayBar(props: { target: () => CallStarter | undefined; disabled: () => boolean }) {
  const [state, setState] = createSignal<ReplayState>({ phase: "idle" });
  let controller: AbortController | undefined;
  onCleanup(() => controller?.abort());

  const start = async (file: File) => {
    const target = props.target();
    if (!target) return;
    let list;
    try {
      list = parseCallList(await file.text(), file.name);
    } catch (error) {
      const detail = error instanceof CallListError ? error.message : `${file.name} could not be read: ${String(error)}`;
      setState({ phase: "invalid", message: `Nothing was replayed: ${detail}. ${FORMAT_HINT}` });
      return;
    }
    if (list.length === 0) {
      setState({ phase: "invalid", message: `Nothing was replayed: ${file.name} holds no calls. ${FORMAT_HINT}` });
      return;
    }
    controller = new AbortController();
    let progress: ReplayProgress = { position: 0, total: list.length };
    setState({ phase: "running", file: file.name, progress });
    try {
      const outcome = await replayCalls(target, list, {
        signal: controller.signal,
        onProgress: (next) => {
          progress = next;
          setState({ phase: "running", file: file.name, progress });
        },
      });
      setState({ phase: "over", file: file.name, progress, stopped: outcome.stopped });
    } catch (error) {
      // The session went away under the replay (deleted): the rest cannot run there.
      const detail = errorMessage(error);
      setState({ phase: "invalid", message: `The replay of ${file.name} stopped at ${progress.position} of ${progress.total}: ${detail}` });
    } finally {
      controller = undefined;
    }
  };

  const status = () => {
    const now = state();
    if (now.phase === "running") return `Replaying ${now.file}: ${now.progress.position} of ${now.progress.total}`;
    if (now.phase === "over") {
      return now.stopped
        ? `Replay of ${now.file} stopped at ${now.progress.position} of ${now.progress.total}`
        : `Replayed ${now.file}: ${now.progress.total} of ${now.progress.total}`;
    }
    return undefined;
  };

  return (
    <div class="replay-bar" data-testid="replay-bar">
      <label class="button" classList={{ disabled: props.disabled() || state().phase === "running" }}>
        Replay calls…
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Replay a calls file"
          disabled={props.disabled() || state().phase === "running"}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = "";
            if (file) void start(file);
          }}
        />
      </label>
      <Show when={status()}>
        <span class="replay-status" role="status" data-testid="replay-status">
          {status()}
        </span>
      </Show>
      <Show when={state().phase === "running"}>
        <button type="button" class="button danger" onClick={() => controller?.abort()}>
          Stop replay
        </button>
      </Show>
      <Show when={state().phase === "invalid" ? (state() as { message: string }).message : undefined}>
        {(message) => (
          <p class="replay-error" role="alert" data-testid="replay-error">
            {message()}
            <button type="button" class="dismiss" aria-label="Dismiss" onClick={() => setState({ phase: "idle" })}>
              ×
            </button>
          </p>
        )}
      </Show>
    </div>
  );
}
