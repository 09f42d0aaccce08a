import { describe, expect, it } from "vitest";
import { INTERRUPTED_MESSAGE, type SessionRecord, type ToolCall } from "../../../src/session/record/session-record.js";
import { MemoryShelf, ShelfSessionStore } from "../../../src/session/record/key-value-session-store.js";

function call(id: string, status: ToolCall["status"], output?: string): ToolCall {
  return {
    id,
    sessionID: "ses_1",
    messageID: "msg_1",
    tool: "bash",
    input: {},
    status,
    title: "",
    metadata: {},
    output,
    permissions: [],
    time: { created: 1 },
  };
}

function session(id: string, createdAt: number, calls: ToolCall[] = []): SessionRecord {
  return { id, title: `title ${id}`, agent: "build", createdAt, calls, messages: [] };
}

/** A shelf whose writes wait until released, to see what the store does while one is under way. */
class GatedShelf extends MemoryShelf {
  readonly written: string[] = [];
  private gates: Array<() => void> = [];
  held = true;

  override async put(entries: Array<[string, string]>): Promise<void> {
    if (this.held) await new Promise<void>((open) => this.gates.push(open));
    this.written.push(...entries.filter(([key]) => key.startsWith("call:")).map(([, value]) => value));
    return super.put(entries);
  }

  release(): void {
    this.held = false;
    for (const open of this.gates.splice(0)) open();
  }
}

describe("contract: the store keeps sessions and brings them back as saved", () => {
  it("loads a saved session as it was, without sharing objects with the caller", async () => {
    const store = new ShelfSessionStore(new MemoryShelf());
    const saved = session("ses_1", 5, [call("c1", "completed", "done")]);
    await store.save(saved);
    saved.calls[0]!.output = "changed after saving";
    expect((await store.load("ses_1"))?.calls[0]).toMatchObject({ status: "completed", output: "done" });
    expect(await store.load("ses_missing")).toBeUndefined();
  });

  it("brings calls that were in flight back as interrupted, finished ones untouched", async () => {
    const store = new ShelfSessionStore(new MemoryShelf());
    await store.save(session("ses_1", 5, [call("c1", "completed", "ok"), call("c2", "running"), call("c3", "pending")]));
    const loaded = await store.load("ses_1");
    expect(loaded?.calls.map((c) => c.status)).toEqual(["completed", "interrupted", "interrupted"]);
    expect(loaded?.calls[1]?.error).toBe(INTERRUPTED_MESSAGE);
    expect(loaded?.calls[1]?.time.end).toBeTypeOf("number");
  });

  it("lists summaries oldest first with their call counts, and forgets a deleted session", async () => {
    const store = new ShelfSessionStore(new MemoryShelf());
    await store.save(session("ses_b", 20, [call("c1", "completed")]));
    await store.save(session("ses_a", 10));
    expect(await store.list()).toEqual([
      { id: "ses_a", title: "title ses_a", createdAt: 10, calls: 0 },
      { id: "ses_b", title: "title ses_b", createdAt: 20, calls: 1 },
    ]);
    await store.delete("ses_a");
    expect((await store.list()).map((s) => s.id)).toEqual(["ses_b"]);
    expect(await store.load("ses_a")).toBeUndefined();
  });

  it("remembers the current session only while it exists", async () => {
    const shelf = new MemoryShelf();
    const store = new ShelfSessionStore(shelf);
    expect(await store.current()).toBeUndefined();
    await store.save(session("ses_1", 1));
    await store.setCurrent("ses_1");
    expect(await new ShelfSessionStore(shelf).current()).toBe("ses_1");
    await store.setCurrent("ses_gone");
    expect(await store.current()).toBeUndefined();
    await store.setCurrent("ses_1");
    await store.delete("ses_1");
    expect(await new ShelfSessionStore(shelf).current()).toBeUndefined();
  });
});

describe("contract: saves are coalesced but the last state is never lost", () => {
  it("while a write is under way, later saves wait as one, and the last one is what is kept", async () => {
    const shelf = new GatedShelf();
    const store = new ShelfSessionStore(shelf);
    const live = session("ses_1", 1, [call("c1", "running", "")]);
    const saves: Array<Promise<void>> = [];
    saves.push(store.save(live));
    // Let the first write begin (and hold), so the rest queue behind it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (let i = 0; i < 10; i++) {
      live.calls[0]!.output = `line ${i}`;
      saves.push(store.save(live));
    }
    live.calls[0]!.status = "completed";
    saves.push(store.save(live));
    shelf.release();
    await Promise.all(saves);
    const written = shelf.written.map((text) => JSON.parse(text) as ToolCall);
    expect(written.length).toBeLessThanOrEqual(2);
    expect(written.at(-1)).toMatchObject({ status: "completed", output: "line 9" });
    expect((await store.load("ses_1"))?.calls[0]).toMatchObject({ status: "completed", output: "line 9" });
  });

  it("a call is written again only while it runs: once written ended, later saves leave it alone", async () => {
    const shelf = new GatedShelf();
    shelf.release();
    const store = new ShelfSessionStore(shelf);
    const live = session("ses_1", 1, [call("c1", "completed", "big finished output"), call("c2", "running", "a")]);
    await store.save(live);
    live.calls[1]!.output = "ab";
    await store.save(live);
    live.calls[1]!.status = "completed";
    await store.save(live);
    live.calls.push(call("c3", "pending"));
    await store.save(live);
    const ids = shelf.written.map((text) => (JSON.parse(text) as ToolCall).id);
    expect(ids.filter((id) => id === "c1")).toHaveLength(1);
    expect(ids.filter((id) => id === "c2")).toHaveLength(3);
    expect((await store.load("ses_1"))?.calls.map((c) => [c.id, c.status, c.output])).toEqual([
      ["c1", "completed", "big finished output"],
      ["c2", "completed", "ab"],
      ["c3", "interrupted", undefined],
    ]);
  });

  it("a call that ends while an earlier save is being written is kept in its end state", async () => {
    const shelf = new GatedShelf();
    const store = new ShelfSessionStore(shelf);
    const live = session("ses_1", 1, [call("c1", "running")]);
    const first = store.save(live);
    await new Promise((resolve) => setTimeout(resolve, 0));
    live.calls[0]!.status = "completed";
    live.calls[0]!.output = "final";
    const second = store.save(live);
    live.calls.push(call("c2", "running"));
    const third = store.save(live);
    shelf.release();
    await Promise.all([first, second, third]);
    expect((await new ShelfSessionStore(shelf).load("ses_1"))?.calls[0]).toMatchObject({ status: "completed", output: "final" });
  });

  it("a failed write rejects the saves it carried, and the next save writes again", async () => {
    let fail = true;
    const shelf = new MemoryShelf();
    const flaky = Object.assign(Object.create(shelf) as MemoryShelf, {
      put: async (entries: Array<[string, string]>) => {
        if (fail) throw new Error("quota exceeded");
        return shelf.put(entries);
      },
    });
    const store = new ShelfSessionStore(flaky);
    await expect(store.save(session("ses_1", 1))).rejects.toThrow("quota exceeded");
    fail = false;
    await store.save(session("ses_1", 1));
    expect((await store.list()).map((s) => s.id)).toEqual(["ses_1"]);
  });

  it("a save arriving after its session was deleted does not bring it back", async () => {
    const shelf = new GatedShelf();
    const store = new ShelfSessionStore(shelf);
    const live = session("ses_1", 1, [call("c1", "running")]);
    const first = store.save(live);
    const queued = store.save(live);
    const deleting = store.delete("ses_1");
    shelf.release();
    await Promise.all([first, queued, deleting]);
    await store.save(live);
    expect(await store.list()).toEqual([]);
    expect(await store.load("ses_1")).toBeUndefined();
  });
});
