/**
 * The page's checkpoints, one timeline per workspace, opened beside its runtime (the embedded one: its file
 * host sees every write). Opening reads the whole workspace once (the first time: the baseline), so it runs
 * in the background; the session's marks wait for it. A read-only tab (the workspace is open in another)
 * records nothing: the other tab does.
 */
import type { Runtime } from "../runtime/types.js";
import { Checkpoints } from "../workspace/checkpoints/checkpoints.js";
import { openIndexedDBCheckpointStorage } from "../workspace/checkpoints/indexeddb-storage.js";
import { MemoryCheckpointStorage, type CheckpointStorage } from "../workspace/checkpoints/storage.js";
import type { ToolCall } from "../session/record/session-record.js";
import { type SessionCheckpoints, sessionCheckpoints } from "../session/host/session-checkpoints.js";

const opened = new WeakMap<Runtime, Promise<{ checkpoints: Checkpoints; marks: SessionCheckpoints }>>();

/** Starts recording a runtime's workspace; `persistent`: keep the timeline in IndexedDB (else in memory). */
export function openPageCheckpoints(runtime: Runtime, workspace: string, options: { persistent: boolean; readOnly: boolean }): void {
  if (runtime.kind !== "embedded" || options.readOnly || opened.has(runtime)) return;
  const storage: Promise<CheckpointStorage> = options.persistent
    ? openIndexedDBCheckpointStorage(workspace).catch(() => new MemoryCheckpointStorage())
    : Promise.resolve(new MemoryCheckpointStorage());
  const ready = storage.then(async (store) => {
    const checkpoints = await Checkpoints.open({ fs: runtime.fs, root: runtime.root, storage: store });
    checkpoints.attach(runtime);
    return { checkpoints, marks: sessionCheckpoints(checkpoints) };
  });
  ready.catch((error: unknown) => console.error("checkpoints could not start (undo is not available):", error));
  opened.set(runtime, ready);
}

/** A runtime's checkpoints, once they are open; undefined when none are kept. */
export function pageCheckpointsOf(runtime: Runtime): Promise<Checkpoints> | undefined {
  return opened.get(runtime)?.then((open) => open.checkpoints);
}

/** Marks that wait for the checkpoints to open (a session opened before they finished reading the files). */
export function deferredCheckpoints(runtime: Runtime): SessionCheckpoints | undefined {
  const ready = opened.get(runtime);
  if (!ready) return undefined;
  const later = (act: (marks: SessionCheckpoints) => Promise<void>) =>
    ready.then(
      (open) => act(open.marks),
      () => undefined,
    );
  return {
    beforeMessage: (sessionID: string, messageID: string) => later((marks) => marks.beforeMessage(sessionID, messageID)),
    beforeCall: (call: ToolCall) => later((marks) => marks.beforeCall(call)),
    afterCall: (call: ToolCall) => later((marks) => marks.afterCall(call)),
  };
}
