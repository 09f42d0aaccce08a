/**
 * When to redraw what: one version signal per call, moved only by that call's updates, so that a running
 * bash (ten updates a second) redraws its own card and leaves the other cards' computations asleep. The
 * list itself is told only when calls are added or prompts come and go.
 */
import { createSignal, type Accessor, type Signal } from "solid-js";
import type { PageTools } from "../../page/page-tools.js";

export type CallSource = Pick<PageTools, "calls" | "onCallUpdated" | "onPromptsChanged">;

export interface CallVersions {
  /** The version of one call: read it to depend on that call's record. */
  of(callID: string): Accessor<number>;
  dispose(): void;
}

const live = (status: string) => status === "pending" || status === "running";

export function trackCallVersions(page: CallSource, onListChange: () => void): CallVersions {
  const signals = new Map<string, Signal<number>>();
  const signal = (callID: string): Signal<number> => {
    let found = signals.get(callID);
    if (!found) signals.set(callID, (found = createSignal(0, { equals: false })));
    return found;
  };
  let known = page.calls.length;
  const offCall = page.onCallUpdated((callID) => {
    signal(callID)[1](0);
    if (page.calls.length !== known) {
      known = page.calls.length;
      onListChange();
    }
  });
  const offPrompts = page.onPromptsChanged(() => {
    onListChange();
    // A prompt changes its call's state (pending permission), which the call's record does not announce;
    // a microtask later, because the runner records the answer in a listener that runs after this one.
    queueMicrotask(() => {
      for (const call of page.calls) if (live(call.status)) signal(call.id)[1](0);
    });
  });
  return {
    of: (callID) => signal(callID)[0],
    dispose: () => {
      offCall();
      offPrompts();
    },
  };
}
