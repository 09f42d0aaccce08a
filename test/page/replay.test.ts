import { afterEach, describe, expect, it } from "vitest";
import { parseCallList } from "../../src/session/record/call-list.js";
import type { ToolCall } from "../../src/session/record/session-record.js";
import { replayCalls, type CallStarter, type ReplayProgress } from "../../src/page/replay.js";
import { disposePages, pageWith } from "../support/page-tools.js";

afterEach(disposePages);

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
};

/** A starter whose calls end only when the test says so, to watch the order of starts. */
function manualStarter() {
  const log: string[] = [];
  const endings: Array<() => void> = [];
  const starter: CallStarter = {
    start(tool) {
      log.push(`start ${tool}`);
      const call = { id: `call_${log.length}`, tool, status: "running" } as ToolCall;
      const done = new Promise<ToolCall>((resolve) =>
        endings.push(() => {
          log.push(`end ${tool}`);
          call.status = "completed";
          resolve(call);
        }),
      );
      return { call, done };
    },
    abort: (id) => (log.push(`abort ${id}`), true),
  };
  return { starter, log, endNext: () => endings.shift()?.() };
}

/** A session where edits ask, and a list that writes a file (so it asks) and then reads it. */
async function writeThatAsksThenRead() {
  const page = await pageWith({ "opencode.json": '{"permission":{"edit":"ask"}}' });
  const list = parseCallList(
    JSON.stringify([
      { tool: "write", args: { filePath: "w.txt", content: "ok" } },
      { tool: "read", args: { filePath: "w.txt" } },
    ]),
    "f",
  );
  return { page, list };
}

describe("contract: a replay runs the list in order, each call after the previous one ended", () => {
  it("starts no call before the one before it has ended, and reports its place", async () => {
    const { starter, log, endNext } = manualStarter();
    const progress: ReplayProgress[] = [];
    const list = parseCallList('[{"tool":"a"},{"tool":"b"},{"tool":"c"}]', "f");
    const replay = replayCalls(starter, list, { onProgress: (p) => progress.push(p) });
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(log.filter((line) => line.startsWith("start"))).toHaveLength(i + 1);
      endNext();
    }
    const outcome = await replay;
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(progress).toEqual([1, 2, 3].map((position) => ({ position, total: 3 })));
    expect(outcome.stopped).toBe(false);
    expect(outcome.calls.map((c) => c.tool)).toEqual(["a", "b", "c"]);
  });

  it("a write then a read of the same file: the read sees what the write wrote", async () => {
    const page = await pageWith({});
    const list = parseCallList(
      JSON.stringify([
        { tool: "write", args: { filePath: "r.txt", content: "replayed\n" } },
        { tool: "read", args: { filePath: "r.txt" } },
        { tool: "no_such_tool", args: {} },
      ]),
      "f",
    );
    const outcome = await replayCalls(page, list);
    expect(page.calls.map((c) => [c.tool, c.status])).toEqual([
      ["write", "completed"],
      ["read", "completed"],
      ["invalid", "completed"],
    ]);
    expect(page.calls[1]?.output).toContain("00001| replayed");
    expect(outcome.calls).toEqual(page.calls);
  });

  it("a call that asks holds the rest until answered", async () => {
    const { page, list } = await writeThatAsksThenRead();
    const replay = replayCalls(page, list);
    await until(() => page.pending().length > 0);
    expect(page.calls).toHaveLength(1);
    page.reply(page.pending()[0]!.id, "once");
    await replay;
    expect(page.calls.map((c) => c.status)).toEqual(["completed", "completed"]);
    expect(page.calls[1]?.output).toContain("00001| ok");
  });

  it("stopping aborts the call under way (its prompt goes) and starts no more", async () => {
    const { page, list } = await writeThatAsksThenRead();
    const controller = new AbortController();
    const replay = replayCalls(page, list, { signal: controller.signal });
    await until(() => page.pending().length > 0);
    controller.abort();
    const outcome = await replay;
    expect(outcome.stopped).toBe(true);
    expect(page.pending()).toEqual([]);
    expect(page.calls.map((c) => c.status)).toEqual(["error"]);
    expect(page.wasAborted(page.calls[0]!.id)).toBe(true);
  });

  it("a session closed under the replay (deleted) refuses the next call, and the replay ends with why", async () => {
    const { page, list } = await writeThatAsksThenRead();
    const replay = replayCalls(page, list);
    await until(() => page.pending().length > 0);
    await page.close();
    await expect(replay).rejects.toThrow(/was closed .*: run the call in the current session/);
    expect(page.calls).toHaveLength(1);
    expect(page.calls[0]?.status).toBe("error");
  });
});
