import { describe, expect, it, vi } from "vitest";
import { Bus, type BusEvents } from "../../../src/tools/bus.js";
import { rulesFromConfig } from "../../../src/tools/permission/config.js";
import { ascendingIds, PermissionEngine, type AskRequest } from "../../../src/tools/permission/engine.js";
import { CorrectedError, DeniedError, RejectedError } from "../../../src/tools/permission/errors.js";
import type { Ruleset } from "../../../src/tools/permission/types.js";

const config = (value: unknown): Ruleset => rulesFromConfig(value, { home: "/home/me" });

function setup(options: { onApprovalsChanged?: (approved: Ruleset) => void } = {}) {
  const bus = new Bus();
  const asked: BusEvents["permission.asked"][] = [];
  const replied: BusEvents["permission.replied"][] = [];
  bus.subscribe("permission.asked", (request) => asked.push(request));
  bus.subscribe("permission.replied", (payload) => replied.push(payload));
  let n = 0;
  const engine = new PermissionEngine({ bus, newId: () => `per_${++n}`, ...options });
  return { bus, engine, asked, replied };
}

function request(overrides: Partial<AskRequest> = {}): AskRequest {
  return { sessionID: "s1", permission: "bash", patterns: ["ls"], always: ["ls *"], metadata: {}, ...overrides };
}

/** Observes a promise without letting an expected rejection go unhandled. */
function track(promise: Promise<void>) {
  const state: { status: "pending" | "resolved" | "rejected"; error?: unknown } = { status: "pending" };
  promise.then(
    () => (state.status = "resolved"),
    (error: unknown) => Object.assign(state, { status: "rejected", error }),
  );
  return state;
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("PermissionEngine.ask: decisions the rules make alone", () => {
  it("resolves when every pattern is allowed, without asking anyone", async () => {
    const { engine, asked } = setup();
    await expect(engine.ask(request({ patterns: ["ls", "pwd"] }), config({ bash: "allow" }))).resolves.toBeUndefined();
    expect(asked).toEqual([]);
    expect(engine.pending()).toEqual([]);
  });

  it("resolves when there are no patterns at all", async () => {
    const { engine } = setup();
    await expect(engine.ask(request({ patterns: [] }), config("deny"))).resolves.toBeUndefined();
  });

  it("throws DeniedError quoting the rules about this permission, without their source", async () => {
    const { engine, asked } = setup();
    const rules = config({ "*": "allow", bash: { "*": "ask", "rm *": "deny" }, edit: "deny" });
    const error = await engine.ask(request({ patterns: ["rm -rf /"] }), rules).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeniedError);
    expect((error as Error).name).toBe("PermissionDeniedError");
    expect((error as Error).message).toBe(
      "The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules " +
        '[{"permission":"*","pattern":"*","action":"allow"},{"permission":"bash","pattern":"*","action":"ask"},{"permission":"bash","pattern":"rm *","action":"deny"}]',
    );
    expect(asked).toEqual([]);
  });

  it("denies when a later pattern is denied even though an earlier one only asks (unlike OpenCode)", async () => {
    const { engine, asked } = setup();
    const rules = config({ bash: { "*": "ask", "rm *": "deny" } });
    await expect(engine.ask(request({ patterns: ["ls", "rm -rf /"] }), rules)).rejects.toBeInstanceOf(DeniedError);
    expect(asked).toEqual([]);
    expect(engine.pending()).toEqual([]);
  });

  it("asks when no rule matches", async () => {
    const { engine, asked } = setup();
    track(engine.ask(request(), []));
    expect(asked).toHaveLength(1);
  });
});

describe("PermissionEngine.ask: asking the user", () => {
  it("queues a request with an id, publishes it, and waits", async () => {
    const { engine, asked } = setup();
    const tool = { messageID: "m1", callID: "c1" };
    const state = track(engine.ask(request({ patterns: ["ls", "pwd"], metadata: { cwd: "/w" }, tool }), config({ bash: "ask" })));
    const expected = {
      id: "per_1",
      sessionID: "s1",
      permission: "bash",
      patterns: ["ls", "pwd"],
      always: ["ls *"],
      metadata: { cwd: "/w" },
      tool,
    };
    expect(asked).toEqual([expected]);
    expect(engine.pending()).toEqual([expected]);
    await flush();
    expect(state.status).toBe("pending");
  });

  it("asks when one pattern is allowed and another is not decided", async () => {
    const { engine, asked } = setup();
    track(engine.ask(request({ patterns: ["ls", "make"] }), config({ bash: { "*": "ask", "ls *": "allow" } })));
    expect(asked.map((r) => r.patterns)).toEqual([["ls", "make"]]);
  });

  it("lists pending requests per session, oldest first", () => {
    const { engine } = setup();
    track(engine.ask(request({ sessionID: "a", patterns: ["1"] }), []));
    track(engine.ask(request({ sessionID: "b", patterns: ["2"] }), []));
    track(engine.ask(request({ sessionID: "a", patterns: ["3"] }), []));
    expect(engine.pending().map((r) => r.patterns[0])).toEqual(["1", "2", "3"]);
    expect(engine.pending("a").map((r) => r.patterns[0])).toEqual(["1", "3"]);
    expect(engine.pending("zzz")).toEqual([]);
  });

  it("makes ascending per_ ids by default", () => {
    const engine = new PermissionEngine({ bus: new Bus() });
    for (let i = 0; i < 50; i++) track(engine.ask(request(), []));
    const ids = engine.pending().map((r) => r.id);
    expect(ids.every((id) => id.startsWith("per_"))).toBe(true);
    expect(new Set(ids).size).toBe(50);
    expect([...ids].sort()).toEqual(ids);
  });

  it("keeps ids ascending even when the clock goes backwards", () => {
    const now = vi.spyOn(Date, "now");
    try {
      const next = ascendingIds("per_");
      now.mockReturnValue(5_000);
      const a = next();
      now.mockReturnValue(4_000);
      const b = next();
      now.mockReturnValue(6_000);
      const c = next();
      expect([a, b, c].sort()).toEqual([a, b, c]);
      expect(new Set([a, b, c]).size).toBe(3);
    } finally {
      now.mockRestore();
    }
  });

  it("refuses a duplicate id from a custom generator instead of losing a request", async () => {
    const engine = new PermissionEngine({ bus: new Bus(), newId: () => "per_same" });
    track(engine.ask(request(), []));
    await expect(engine.ask(request(), [])).rejects.toThrow(/already pending/);
    expect(engine.pending()).toHaveLength(1);
  });
});

describe("PermissionEngine.reply", () => {
  it("once: resolves that request only and records no approval", async () => {
    const { engine, replied } = setup();
    const first = track(engine.ask(request(), []));
    const second = track(engine.ask(request(), []));
    expect(engine.reply("per_1", "once")).toBe(true);
    await flush();
    expect(first.status).toBe("resolved");
    expect(second.status).toBe("pending");
    expect(engine.approved).toEqual([]);
    expect(replied).toEqual([{ sessionID: "s1", requestID: "per_1", reply: "once" }]);
  });

  it("returns false and does nothing for an unknown or already answered id", async () => {
    const { engine, replied } = setup();
    const state = track(engine.ask(request(), []));
    expect(engine.reply("per_999", "reject")).toBe(false);
    expect(engine.reply("per_1", "once")).toBe(true);
    expect(engine.reply("per_1", "reject")).toBe(false);
    await flush();
    expect(state.status).toBe("resolved");
    expect(replied).toHaveLength(1);
  });

  it("always: stores an allow rule per `always` pattern and resolves", async () => {
    const { engine } = setup();
    const state = track(engine.ask(request({ patterns: ["git log -5"], always: ["git log *"] }), config({ bash: "ask" })));
    engine.reply("per_1", "always");
    await flush();
    expect(state.status).toBe("resolved");
    expect(engine.approved).toEqual([{ permission: "bash", pattern: "git log *", action: "allow", source: "approval" }]);
  });

  it("always: later asks covered by the approval pass without asking, even over a configured ask", async () => {
    const { engine, asked } = setup();
    const rules = config({ bash: "ask" });
    track(engine.ask(request({ patterns: ["git log -5"], always: ["git log *"] }), rules));
    engine.reply("per_1", "always");
    await expect(engine.ask(request({ patterns: ["git log"] }), rules)).resolves.toBeUndefined();
    expect(asked).toHaveLength(1);
  });

  it("always: approvals override a configured deny for the same pattern, as in OpenCode", async () => {
    const { engine } = setup();
    engine.loadApprovals([{ permission: "bash", pattern: "rm *", action: "allow" }]);
    await expect(engine.ask(request({ patterns: ["rm x"] }), config({ bash: { "rm *": "deny" } }))).resolves.toBeUndefined();
  });

  it("always: settles the same session's pending requests it now covers, and no others", async () => {
    const { engine, replied } = setup();
    const rules = config({ bash: "ask" });
    const target = track(engine.ask(request({ patterns: ["git log"], always: ["git *"] }), rules));
    const covered = track(engine.ask(request({ patterns: ["git status", "git diff"] }), rules));
    const partly = track(engine.ask(request({ patterns: ["git status", "make"] }), rules));
    const otherPermission = track(engine.ask(request({ permission: "edit", patterns: ["git x"] }), rules));
    const otherSession = track(engine.ask(request({ sessionID: "s2", patterns: ["git status"] }), rules));
    engine.reply("per_1", "always");
    await flush();
    expect(target.status).toBe("resolved");
    expect(covered.status).toBe("resolved");
    expect(partly.status).toBe("pending");
    expect(otherPermission.status).toBe("pending");
    expect(otherSession.status).toBe("pending");
    expect(engine.pending().map((r) => r.id)).toEqual(["per_3", "per_4", "per_5"]);
    expect(replied).toEqual([
      { sessionID: "s1", requestID: "per_1", reply: "always" },
      { sessionID: "s1", requestID: "per_2", reply: "always" },
    ]);
  });

  it("always: tells onApprovalsChanged about every approval so far", () => {
    const onApprovalsChanged = vi.fn();
    const { engine } = setup({ onApprovalsChanged });
    track(engine.ask(request({ always: ["ls *"] }), []));
    track(engine.ask(request({ permission: "read", patterns: ["/x"], always: ["*"] }), []));
    engine.reply("per_1", "always");
    engine.reply("per_2", "always");
    expect(onApprovalsChanged).toHaveBeenCalledTimes(2);
    expect(onApprovalsChanged).toHaveBeenLastCalledWith([
      { permission: "bash", pattern: "ls *", action: "allow", source: "approval" },
      { permission: "read", pattern: "*", action: "allow", source: "approval" },
    ]);
  });

  it("once and reject do not call onApprovalsChanged", () => {
    const onApprovalsChanged = vi.fn();
    const { engine } = setup({ onApprovalsChanged });
    track(engine.ask(request(), []));
    track(engine.ask(request({ sessionID: "s2" }), []));
    engine.reply("per_1", "once");
    engine.reply("per_2", "reject");
    expect(onApprovalsChanged).not.toHaveBeenCalled();
  });

  it("a throwing onApprovalsChanged does not undo the answer", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { engine } = setup({
        onApprovalsChanged: () => {
          throw new Error("disk full");
        },
      });
      const state = track(engine.ask(request(), []));
      expect(engine.reply("per_1", "always")).toBe(true);
      await flush();
      expect(state.status).toBe("resolved");
      expect(engine.approved).toHaveLength(1);
      expect(error).toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  it("reject: rejects with RejectedError, and every other pending request of the session too", async () => {
    const { engine, replied } = setup();
    const target = track(engine.ask(request(), []));
    const sibling = track(engine.ask(request({ permission: "edit" }), []));
    const elsewhere = track(engine.ask(request({ sessionID: "s2" }), []));
    engine.reply("per_1", "reject");
    await flush();
    expect(target.status).toBe("rejected");
    expect(target.error).toBeInstanceOf(RejectedError);
    expect((target.error as Error).message).toBe("The user rejected permission to use this specific tool call.");
    expect((target.error as Error).name).toBe("PermissionRejectedError");
    expect(sibling.status).toBe("rejected");
    expect(sibling.error).toBeInstanceOf(RejectedError);
    expect(elsewhere.status).toBe("pending");
    expect(replied).toEqual([
      { sessionID: "s1", requestID: "per_1", reply: "reject" },
      { sessionID: "s1", requestID: "per_2", reply: "reject" },
    ]);
  });

  it("reject with a message: CorrectedError for that request, plain RejectedError for the others", async () => {
    const { engine, replied } = setup();
    const target = track(engine.ask(request(), []));
    const sibling = track(engine.ask(request(), []));
    engine.reply("per_1", "reject", "use pnpm instead");
    await flush();
    expect(target.error).toBeInstanceOf(CorrectedError);
    expect((target.error as Error).message).toBe(
      "The user rejected permission to use this specific tool call with the following feedback: use pnpm instead",
    );
    expect((target.error as CorrectedError).feedback).toBe("use pnpm instead");
    expect((target.error as Error).name).toBe("PermissionCorrectedError");
    expect(sibling.error).toBeInstanceOf(RejectedError);
    expect(replied[0]).toEqual({ sessionID: "s1", requestID: "per_1", reply: "reject", message: "use pnpm instead" });
  });

  it("removes a request from pending before announcing the reply", () => {
    const { bus, engine } = setup();
    const seen: number[] = [];
    bus.subscribe("permission.replied", () => seen.push(engine.pending().length));
    track(engine.ask(request(), []));
    engine.reply("per_1", "once");
    expect(seen).toEqual([0]);
  });
});

describe("PermissionEngine: approvals and cancellation", () => {
  it("loadApprovals replaces the approvals, marks them as approvals, and is used by ask", async () => {
    const { engine } = setup();
    engine.loadApprovals([{ permission: "edit", pattern: "src/*", action: "allow", source: "config" }]);
    expect(engine.approved).toEqual([{ permission: "edit", pattern: "src/*", action: "allow", source: "approval" }]);
    await expect(engine.ask(request({ permission: "edit", patterns: ["src/a.ts"] }), [])).resolves.toBeUndefined();
    engine.loadApprovals([]);
    expect(engine.approved).toEqual([]);
  });

  it("approved is a read-only copy", () => {
    const { engine } = setup();
    engine.loadApprovals([{ permission: "edit", pattern: "*", action: "allow" }]);
    const view = engine.approved as unknown as { pattern: string }[];
    expect(() => {
      const first = view[0];
      if (first) first.pattern = "changed";
    }).toThrow(TypeError);
    (view as unknown[]).push({});
    expect(engine.approved).toHaveLength(1);
    expect(engine.approved[0]?.pattern).toBe("*");
  });

  it("cancelSession rejects that session's requests only and announces them", async () => {
    const { engine, replied } = setup();
    const a = track(engine.ask(request(), []));
    const b = track(engine.ask(request({ sessionID: "s2" }), []));
    const c = track(engine.ask(request(), []));
    expect(engine.cancelSession("s1")).toBe(2);
    await flush();
    expect(a.error).toBeInstanceOf(RejectedError);
    expect(c.error).toBeInstanceOf(RejectedError);
    expect(b.status).toBe("pending");
    expect(engine.pending().map((r) => r.sessionID)).toEqual(["s2"]);
    expect(replied.map((r) => [r.requestID, r.reply])).toEqual([
      ["per_1", "reject"],
      ["per_3", "reject"],
    ]);
    expect(engine.cancelSession("s1")).toBe(0);
  });
});
