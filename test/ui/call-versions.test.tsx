// @vitest-environment happy-dom
import { createComputed, createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/session/record/session-record.js";
import { trackCallVersions, type CallSource } from "../../src/ui/tools/call-versions.js";
import { callOf } from "./card-fixtures.js";

/** A page whose updates the test sends by hand. */
function fakePage(calls: ToolCall[]) {
  const callListeners = new Set<(id: string) => void>();
  const promptListeners = new Set<() => void>();
  const page: CallSource = {
    calls,
    onCallUpdated: (listener) => (callListeners.add(listener), () => callListeners.delete(listener)),
    onPromptsChanged: (listener) => (promptListeners.add(listener), () => promptListeners.delete(listener)),
  };
  return {
    page,
    update: (id: string) => callListeners.forEach((l) => l(id)),
    prompt: () => promptListeners.forEach((l) => l()),
    listeners: () => callListeners.size + promptListeners.size,
  };
}

/** How many times a computation that reads each call's version has run. */
function watch(versions: ReturnType<typeof trackCallVersions>, ids: string[]) {
  const runs: Record<string, number> = Object.fromEntries(ids.map((id) => [id, 0]));
  createRoot(() => ids.forEach((id) => createComputed(() => (versions.of(id)(), runs[id]!++))));
  return runs;
}

describe("contract: an update to one call wakes only what reads that call", () => {
  it("ten updates to a running call rerun its computation ten times and the others' never", () => {
    const running = callOf({ status: "running" });
    const done = [callOf(), callOf(), callOf()];
    const { page, update } = fakePage([...done, running]);
    let listChanges = 0;
    const versions = trackCallVersions(page, () => listChanges++);
    const runs = watch(versions, [running.id, ...done.map((c) => c.id)]);
    for (let i = 0; i < 10; i++) update(running.id);
    expect(runs[running.id]).toBe(11);
    for (const call of done) expect(runs[call.id]).toBe(1);
    expect(listChanges).toBe(0);
  });

  it("tells the list when a call is added, and only then", () => {
    const calls = [callOf()];
    const { page, update } = fakePage(calls);
    let listChanges = 0;
    trackCallVersions(page, () => listChanges++);
    const added = callOf({ status: "pending" });
    calls.push(added);
    update(added.id);
    update(added.id);
    expect(listChanges).toBe(1);
  });

  it("a prompt asked or answered tells the list, and then the calls still in flight, not the finished ones", async () => {
    const running = callOf({ status: "running" });
    const finished = callOf();
    const { page, prompt } = fakePage([finished, running]);
    let listChanges = 0;
    const versions = trackCallVersions(page, () => listChanges++);
    const runs = watch(versions, [running.id, finished.id]);
    prompt();
    expect(listChanges).toBe(1);
    await Promise.resolve();
    expect(runs[running.id]).toBe(2);
    expect(runs[finished.id]).toBe(1);
  });

  it("stops listening when disposed", () => {
    const { page, listeners } = fakePage([]);
    const versions = trackCallVersions(page, () => undefined);
    expect(listeners()).toBe(2);
    versions.dispose();
    expect(listeners()).toBe(0);
  });
});
