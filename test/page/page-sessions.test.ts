import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { PageSessions } from "../../src/page/page-sessions.js";
import { exportSession, importSession } from "../../src/session/record/session-json.js";
import { MemoryShelf, ShelfSessionStore } from "../../src/session/record/key-value-session-store.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

async function setUp() {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  const shelf = new MemoryShelf();
  // A reload: a new store and a new page over the same shelf.
  const reopen = (remember = true) => PageSessions.open(runtime!, new ShelfSessionStore(shelf), { remember });
  return { shelf, reopen };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe("contract: sessions are listed, switched and remembered across a reload", () => {
  it("a session in the background that waits on a prompt says so in the list, and stops saying so once answered", async () => {
    const { reopen } = await setUp();
    await runtime!.fs.writeFile(`${runtime!.root}/opencode.json`, '{"permission":{"edit":"ask"}}');
    const sessions = await reopen();
    const first = sessions.current;
    const { done } = first.start("write", { filePath: "w.txt", content: "x" });
    await until(() => first.pending().length === 1);
    let changes = 0;
    sessions.onChange(() => changes++);
    await sessions.create();
    const waitingOf = (id: string) => sessions.list().find((summary) => summary.id === id)?.waiting;
    expect(waitingOf(first.record.id)).toBe(1);
    expect(waitingOf(sessions.current.record.id)).toBe(0);
    const before = changes;
    first.reply(first.pending()[0]!.id, "once");
    await done;
    expect(waitingOf(first.record.id)).toBe(0);
    expect(changes).toBeGreaterThan(before);
  });

  it("starts with one new session, saved at once", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    expect(sessions.list()).toEqual([expect.objectContaining({ id: sessions.current.record.id, title: "Session 1", calls: 0 })]);
    const again = await reopen();
    expect(again.current.record.id).toBe(sessions.current.record.id);
  });

  it("a new session is empty and current; switching back shows the first one's calls", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    const first = sessions.current;
    await first.start("write", { filePath: "a.txt", content: "one" }).done;
    const second = await sessions.create();
    expect(second.calls).toEqual([]);
    expect(second.record.title).toBe("Session 2");
    expect(sessions.current).toBe(second);
    expect(sessions.list().map((s) => [s.title, s.calls])).toEqual([
      ["Session 1", 1],
      ["Session 2", 0],
    ]);
    const back = await sessions.switchTo(first.record.id);
    expect(back).toBe(first);
    expect(back.calls.map((c) => [c.tool, c.status])).toEqual([["write", "completed"]]);
  });

  it("after a reload the current session is the one open last, with its calls as saved", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    const firstID = sessions.current.record.id;
    await sessions.create();
    await sessions.current.start("bash", { command: "echo saved", description: "Echo" }).done;
    const keptID = sessions.current.record.id;
    await sessions.switchTo(firstID);
    await sessions.switchTo(keptID);

    const reloaded = await reopen();
    expect(reloaded.current.record.id).toBe(keptID);
    expect(reloaded.current.calls[0]).toMatchObject({ tool: "bash", status: "completed" });
    expect(reloaded.current.calls[0]?.output).toContain("saved");
    expect(reloaded.list().map((s) => s.id)).toEqual([firstID, keptID]);
  });

  it("a call running at the reload comes back interrupted, and the session takes new calls", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    const { call } = sessions.current.start("bash", { command: "sleep 30", description: "Sleeps" });
    await until(() => call.status === "running");

    const reloaded = await reopen();
    expect(reloaded.current.calls.map((c) => c.status)).toEqual(["interrupted"]);
    const next = await reloaded.current.start("bash", { command: "echo after", description: "Echo" }).done;
    expect(next.status).toBe("completed");
    expect((await reopen()).current.calls.map((c) => c.status)).toEqual(["interrupted", "completed"]);
    await sessions.close();
  });

  it("closed for a new runtime, the page aborts its running calls and saves their real end before reopening", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    const { call } = sessions.current.start("bash", { command: "echo begun; sleep 30", description: "Sleeps" });
    await until(() => call.status === "running");
    await sessions.close();
    expect(sessions.current.wasAborted(call.id)).toBe(true);
    const reopened = await reopen();
    expect(reopened.current.calls[0]?.status).not.toBe("interrupted");
    expect(reopened.current.calls[0]).toMatchObject({ id: call.id, status: call.status });
    expect(reopened.current.calls[0]?.output ?? reopened.current.calls[0]?.error).toContain("aborted");
  });

  it("deleting the current session opens the latest other one; deleting the last starts a new one", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    const firstID = sessions.current.record.id;
    const second = await sessions.create();
    await sessions.delete(second.record.id);
    expect(sessions.current.record.id).toBe(firstID);
    expect(sessions.list().map((s) => s.id)).toEqual([firstID]);
    await sessions.delete(firstID);
    expect(sessions.list()).toHaveLength(1);
    expect(sessions.current.record.id).not.toBe(firstID);
    expect((await reopen()).list().map((s) => s.id)).toEqual([sessions.current.record.id]);
  });

  it("renames a session, and refuses an empty name", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    await sessions.rename(sessions.current.record.id, "  Refactor  ");
    await expect(sessions.rename(sessions.current.record.id, " ")).rejects.toThrow("a session needs a name");
    expect((await reopen()).list()[0]?.title).toBe("Refactor");
  });

  it("a read-only tab starts its own session and leaves the remembered one alone", async () => {
    const { reopen } = await setUp();
    const owner = await reopen();
    const readOnly = await reopen(false);
    expect(readOnly.current.record.id).not.toBe(owner.current.record.id);
    expect((await reopen()).current.record.id).toBe(owner.current.record.id);
  });

  it("a read-only tab opened and closed again leaves no empty session in the list; its first call keeps it", async () => {
    const { reopen } = await setUp();
    const owner = await reopen();
    for (let i = 0; i < 3; i++) {
      const readOnly = await reopen(false);
      expect(readOnly.list().map((s) => s.id)).toContain(readOnly.current.record.id);
    }
    expect((await reopen()).list().map((s) => s.id)).toEqual([owner.current.record.id]);
    const used = await reopen(false);
    await used.current.start("read", { filePath: "missing.txt" }).done;
    expect((await reopen()).list().map((s) => s.id)).toContain(used.current.record.id);
  });

  it("a current session reopened (trust or rules changed) keeps its record, and only the new page saves it", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const shelf = new MemoryShelf();
    let trusted = false;
    const reopen = () => PageSessions.open(runtime!, new ShelfSessionStore(shelf), { remember: true, trusted: () => trusted });
    const sessions = await reopen();
    const before = sessions.current;
    await before.start("bash", { command: "echo one", description: "One" }).done;
    trusted = true;
    const next = await before.reopen({ trusted });
    sessions.replaceCurrent(next);
    expect(sessions.current).toBe(next);
    expect(next.trusted).toBe(true);
    expect(next.record).toBe(before.record);
    expect(() => before.start("bash", { command: "echo stale", description: "Stale" })).toThrow("was closed");
    await next.start("bash", { command: "echo two", description: "Two" }).done;
    const reloaded = await reopen();
    expect(reloaded.current.trusted).toBe(true);
    expect(reloaded.current.calls.map((c) => c.output?.trim())).toEqual(["one", "two"]);
  });

  it("a background session follows a trust change when switched back to", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    let trusted = false;
    const sessions = await PageSessions.open(runtime, new ShelfSessionStore(new MemoryShelf()), { remember: true, trusted: () => trusted });
    const firstID = sessions.current.record.id;
    await sessions.create();
    trusted = true;
    expect((await sessions.switchTo(firstID)).trusted).toBe(true);
  });

  it("an imported session joins the workspace as the current one, with its messages and calls, and is there after a reload", async () => {
    const { reopen } = await setUp();
    const sessions = await reopen();
    const source = sessions.current;
    await source.start("write", { filePath: "a.txt", content: "a" }).done;
    source.record.title = "Exported";
    const file = exportSession(source.record);
    const imported = await sessions.adopt(importSession(file));
    expect(sessions.current).toBe(imported);
    expect(imported.record.id).not.toBe(source.record.id);
    expect(imported.record.calls.map((call) => call.tool)).toEqual(["write"]);
    expect(sessions.list().map((summary) => summary.title)).toEqual(["Exported", "Exported"]);
    const again = await reopen();
    expect(again.current.record.id).toBe(imported.record.id);
    expect(again.current.record.calls).toHaveLength(1);
  });
});
