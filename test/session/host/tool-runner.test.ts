/** A call's life: states and times on the bus, errors kept inside the call, live metadata throttled, asks recorded. */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { markInterrupted, type ToolCall } from "../../../src/session/record/session-record.js";
import { MemoryShelf, ShelfSessionStore } from "../../../src/session/record/key-value-session-store.js";
import { define } from "../../../src/tools/tool.js";
import { sessionWith } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

const probe = define("probe", {
  description: "does what it is told",
  parameters: z.object({
    mode: z.enum(["ok", "throw", "throw-string", "chatty", "ask", "wait"]),
    pattern: z.string().default("x"),
  }),
  async execute(args, ctx) {
    if (args.mode === "throw") throw new Error("kaboom");
    if (args.mode === "throw-string") throw "a bare string";
    if (args.mode === "chatty") {
      for (let i = 0; i < 500; i++) ctx.metadata({ title: `step ${i}`, metadata: { i } });
      await new Promise((r) => setTimeout(r, 250));
      return { title: "done", metadata: {}, output: "chatted" };
    }
    if (args.mode === "ask") {
      await ctx.ask({ permission: "probe", patterns: [args.pattern], always: ["*"], metadata: {} });
      return { title: "allowed", metadata: {}, output: "went ahead" };
    }
    if (args.mode === "wait") {
      await new Promise((resolve, reject) =>
        ctx.abort.addEventListener("abort", () => reject(new Error("stopped by abort")), { once: true }),
      );
    }
    return { title: "fine", metadata: {}, output: "ok" };
  },
});

async function withProbe(config?: string) {
  const store = new ShelfSessionStore(new MemoryShelf());
  const s = await sessionWith(config ? { "opencode.json": config } : {}, { store });
  s.session.registry.register(probe);
  dispose = s.dispose;
  return { ...s, store };
}

describe("tool runner", () => {
  it("goes pending → running → completed on the bus, with start and end times", async () => {
    const { session } = await withProbe();
    const seen: string[] = [];
    session.bus.subscribe("call.updated", ({ callID }) => seen.push(session.session.calls.find((c) => c.id === callID)!.status));
    const call = await session.run("probe", { mode: "ok" });
    expect(call).toMatchObject({ status: "completed", title: "fine", output: "ok", tool: "probe" });
    expect(seen[0]).toBe("pending");
    expect(seen).toContain("running");
    expect(seen[seen.length - 1]).toBe("completed");
    expect(call.time.start).toBeGreaterThanOrEqual(call.time.created);
    expect(call.time.end).toBeGreaterThanOrEqual(call.time.start!);
  });

  it("keeps whatever a tool throws inside the call as its error", async () => {
    const { session } = await withProbe();
    expect(await session.run("probe", { mode: "throw" })).toMatchObject({ status: "error", error: "kaboom" });
    expect(await session.run("probe", { mode: "throw-string" })).toMatchObject({ status: "error", error: "a bare string" });
    expect((await session.run("probe", { mode: "ok" })).status).toBe("completed");
  });

  it("sends a call to an unknown tool to invalid, which lists the tools there are", async () => {
    const { session } = await withProbe();
    const call = await session.run("prob", { mode: "ok" });
    expect(call.tool).toBe("invalid");
    expect(call.output).toMatch(/^The arguments provided to the tool are invalid: Unknown tool "prob". Available tools: (\w+, )*probe\.$/);
  });

  it("throttles live metadata: 500 updates reach subscribers a handful of times, the latest shown", async () => {
    const { session } = await withProbe();
    let updates = 0;
    let lastTitle = "";
    session.bus.subscribe("call.updated", ({ callID }) => {
      updates++;
      const call = session.session.calls.find((c) => c.id === callID)!;
      if (call.status === "running") lastTitle = call.title;
    });
    const call = await session.run("probe", { mode: "chatty" });
    expect(call.title).toBe("done");
    expect(updates).toBeLessThan(15);
    expect(lastTitle).toBe("step 499");
  });

  it("records each permission request and how it was settled", async () => {
    const { session } = await withProbe(JSON.stringify({ permission: { probe: { "*": "ask", "ok-*": "allow", "no-*": "deny" } } }));
    session.bus.subscribe("permission.asked", (request) => queueMicrotask(() => session.permissions.reply(request.id, "always")));
    const byRule = await session.run("probe", { mode: "ask", pattern: "ok-1" });
    expect(byRule.permissions).toEqual([{ permission: "probe", patterns: ["ok-1"], always: ["*"], answer: "allow" }]);
    const denied = await session.run("probe", { mode: "ask", pattern: "no-1" });
    expect(denied).toMatchObject({ status: "error", permissions: [{ answer: "deny" }] });
    expect(denied.error).toMatch(/prevents you from using this specific tool call/);
    const asked = await session.run("probe", { mode: "ask", pattern: "other" });
    expect(asked).toMatchObject({ status: "completed", permissions: [{ answer: "always" }] });
    // "always" stored `probe *`, so the next one is allowed without a prompt, but a rule's deny still... loses to the approval.
    expect((await session.run("probe", { mode: "ask", pattern: "again" })).permissions[0]!.answer).toBe("allow");
  });

  it("stops waiting for permission when the call is aborted, leaving other calls' prompts alone", async () => {
    const { session } = await withProbe(JSON.stringify({ permission: { probe: "ask" } }));
    const controller = new AbortController();
    const other = session.run("probe", { mode: "ask", pattern: "other" });
    await new Promise((r) => setTimeout(r, 10));
    session.bus.subscribe("permission.asked", () => setTimeout(() => controller.abort(), 20));
    const call = await session.run("probe", { mode: "ask" }, { signal: controller.signal });
    expect(call).toMatchObject({ status: "error", error: "The call was aborted while waiting for permission." });
    expect(session.permissions.pending().map((r) => r.patterns)).toEqual([["other"]]);
    session.permissions.reply(session.permissions.pending()[0]!.id, "once");
    expect((await other).status).toBe("completed");
  });

  it("hands the abort signal to the tool", async () => {
    const { session } = await withProbe();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    expect(await session.run("probe", { mode: "wait" }, { signal: controller.signal })).toMatchObject({
      status: "error",
      error: "stopped by abort",
    });
  });

  it("saves the session, and a call left running reads back as interrupted", async () => {
    const { session, store } = await withProbe();
    await session.run("probe", { mode: "ok" });
    const saved = (await store.load(session.session.id))!;
    expect(saved.calls.map((c) => c.status)).toEqual(["completed"]);
    const running: ToolCall = { ...saved.calls[0]!, id: "call_x", status: "running", output: undefined };
    const reloaded = markInterrupted({ ...saved, calls: [...saved.calls, running] });
    expect(reloaded.calls.map((c) => c.status)).toEqual(["completed", "interrupted"]);
    expect(reloaded.calls[1]!.error).toMatch(/^Interrupted/);
  });
});
