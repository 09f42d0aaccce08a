import { createMemo, Show } from "solid-js";
import type { ToolCall } from "../../session/calls.js";
import { DiffView } from "./DiffView.js";

export type CardState = "pending permission" | "pending" | "running" | "completed" | "error" | "aborted" | "interrupted";

export function stateOf(call: ToolCall, aborted: boolean): CardState {
  if (aborted && call.status !== "pending" && call.status !== "running") return "aborted";
  if (call.status === "running" && call.permissions.some((p) => p.answer === "pending")) return "pending permission";
  return call.status;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function rejectionOf(call: ToolCall): string | undefined {
  const refused = call.permissions.find((p) => p.answer === "reject" || p.answer === "deny");
  if (!refused) return undefined;
  const how = refused.answer === "reject" ? "Rejected by the user" : "Denied by a rule";
  return `${how}: ${refused.permission} ${refused.patterns.join(", ")}${refused.message ? ` — "${refused.message}"` : ""}`;
}

/**
 * One call as a card. `version` changes whenever the call's record (mutated in place by the runner)
 * may have changed; `now` ticks while calls run, for the elapsed time.
 */
export function CallCard(props: { call: ToolCall; aborted: () => boolean; version: () => number; now: () => number; onAbort: (id: string) => void }) {
  const snapshot = createMemo(
    () => {
      props.version();
      const call = props.call;
      return { ...call, metadata: { ...call.metadata }, permissions: call.permissions.map((p) => ({ ...p })), time: { ...call.time } };
    },
    undefined,
    { equals: false },
  );
  const state = () => stateOf(snapshot(), props.aborted());
  const live = () => snapshot().status === "pending" || snapshot().status === "running";
  const elapsed = () => {
    const { time } = snapshot();
    const start = time.start ?? time.created;
    return seconds(Math.max(0, (time.end ?? props.now()) - start));
  };
  const metaText = (key: string) => {
    const value = snapshot().metadata[key];
    return typeof value === "string" ? value : undefined;
  };
  const exit = () => {
    const value = snapshot().metadata.exit;
    return typeof value === "number" || value === null ? value : undefined;
  };
  return (
    <article class="call-card" data-testid="call-card" data-tool={snapshot().tool} data-state={state()} aria-label={`${snapshot().tool} call`}>
      <header class="call-head">
        <span class="call-tool">{snapshot().tool}</span>
        <span class="call-title">{snapshot().title}</span>
        <span class={`call-state state-${state().replace(" ", "-")}`} data-testid="call-state">
          {state()}
        </span>
        <span class="call-time" data-testid="call-time">
          {elapsed()}
        </span>
        <Show when={live()}>
          <button type="button" class="button" onClick={() => props.onAbort(snapshot().id)}>
            Abort
          </button>
        </Show>
      </header>
      <details class="call-input">
        <summary>Input</summary>
        <pre data-testid="call-input">{JSON.stringify(snapshot().input, null, 2)}</pre>
      </details>
      {/* An interrupted call keeps what it had streamed when it was last saved. */}
      <Show when={(live() || snapshot().status === "interrupted") && metaText("output")}>
        <pre class="call-output live" data-testid="call-live" tabIndex={0}>
          {metaText("output")}
        </pre>
      </Show>
      <Show when={rejectionOf(snapshot())}>
        <p class="call-rejection" data-testid="call-rejection">
          {rejectionOf(snapshot())}
        </p>
      </Show>
      <Show when={!live() && metaText("diff")}>
        <DiffView diff={metaText("diff")!} label={`Diff of the ${snapshot().tool} call`} />
      </Show>
      <Show when={snapshot().output !== undefined}>
        <pre class="call-output" data-testid="call-output" tabIndex={0}>
          {snapshot().output}
        </pre>
      </Show>
      <Show when={exit() !== undefined}>
        <p class="call-exit" data-testid="call-exit">
          exit {exit() === null ? "none (killed)" : String(exit())}
        </p>
      </Show>
      <Show when={snapshot().error}>
        <pre class="call-error" data-testid="call-error">
          {snapshot().error}
        </pre>
      </Show>
    </article>
  );
}
