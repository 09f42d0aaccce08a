/**
 * The boundary between the execute tool and the worker its program runs in: the runner's thread stays
 * free while a program spins (a timer keeps firing, its event loop is mostly idle), Stop and the time limit
 * end a tight loop at once by terminating the worker, a worker that dies or never loads comes back as a
 * clear tool error, only plain data crosses (what a tool receives is what the host's JSON makes of the
 * program's value; a cyclic value is an error the program can catch), and the runner acts on no message
 * outside the protocol (a call of a refused tool, a malformed message, one call too many).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, type ExecuteLimits } from "../../../src/tools/execute/limits.js";
import { startNodeProgramThread } from "../../../src/tools/execute/node-program-thread.js";
import type { ProgramThread, StartProgramThread } from "../../../src/tools/execute/program-thread.js";
import { startProgramThread } from "../../../src/tools/execute/start-program-thread.js";
import type { ToolAnswer, ToProgram } from "../../../src/tools/execute/protocol.js";
import { type ProgramOutcome, type ProgramRun, runProgramInWorker } from "../../../src/tools/execute/run-in-worker.js";
import { type Opened, openCodeMode } from "./harness.js";

const opened: Opened[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.dispose();
});

/** A started worker as a test sees it: every message it sent (with when), and when it was terminated. */
interface Watched {
  messages: Array<{ at: number; message: { kind?: string; line?: string } }>;
  terminatedAt: number | undefined;
  /** Resolves at the first message of this kind (a printed line: "print"). */
  first(kind: string): Promise<number>;
}

/** Starts workers with `start` and watches each one. */
function watching(start: StartProgramThread = startProgramThread) {
  const threads: Watched[] = [];
  const wrapped: StartProgramThread = async () => {
    const thread = await start();
    const waiters: Array<{ kind: string; resolve: (at: number) => void }> = [];
    const watched: Watched = {
      messages: [],
      terminatedAt: undefined,
      first: (kind) => {
        const seen = watched.messages.find((m) => m.message.kind === kind);
        return seen ? Promise.resolve(seen.at) : new Promise((resolve) => waiters.push({ kind, resolve }));
      },
    };
    threads.push(watched);
    thread.onMessage((message) => {
      const entry = { at: Date.now(), message: message as Watched["messages"][number]["message"] };
      watched.messages.push(entry);
      for (const waiter of waiters.filter((w) => w.kind === entry.message.kind)) waiter.resolve(entry.at);
    });
    return {
      ...thread,
      terminate() {
        watched.terminatedAt ??= Date.now();
        thread.terminate();
      },
    };
  };
  return { threads, start: wrapped };
}

function program(
  code: string,
  overrides: Omit<Partial<ProgramRun>, "limits"> & { limits?: Partial<ExecuteLimits> } = {},
): Promise<ProgramOutcome> {
  const { limits, ...rest } = overrides;
  return runProgramInWorker({
    code,
    limits: { ...DEFAULT_LIMITS, ...limits },
    tools: ["probe"],
    refused: new Map([["execute", "execute cannot call execute."]]),
    signal: new AbortController().signal,
    start: startProgramThread,
    callTool: async () => ({ ok: true, output: "ok" }),
    ...rest,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SPIN = { maxSteps: Number.MAX_SAFE_INTEGER, maxOutputBytes: 1e9 };

describe("execute's worker: the runner's thread is never the program's", () => {
  it("keeps a timer firing while a tight loop runs, and Stop ends the loop within 1 s", async () => {
    const watch = watching();
    const o = await openCodeMode({}, { limits: { ...SPIN, timeoutMs: 120_000 }, start: watch.start });
    opened.push(o);
    const controller = new AbortController();
    const running = o.program(`let n = 0; while (true) { n++; if (n % 20000 === 0) console.log(n); }`, controller.signal);
    while (watch.threads.length === 0) await sleep(10);
    await watch.threads[0]!.first("print");

    // One second of the program spinning, watched from the runner's thread.
    const ticks: number[] = [];
    const interval = setInterval(() => ticks.push(performance.now()), 20);
    const before = performance.eventLoopUtilization();
    await sleep(1_000);
    const busy = performance.eventLoopUtilization(before).utilization;
    clearInterval(interval);
    const gaps = ticks.slice(1).map((tick, i) => tick - ticks[i]!);

    const stoppedAt = Date.now();
    controller.abort();
    const { call, inner } = await running;
    const endedAt = Date.now();
    expect(call.status).toBe("error");
    expect(call.error).toContain("The program was stopped: the call was aborted.");
    expect(call.error).toContain("Printed before it stopped:\n20000");
    expect(inner).toEqual([]);
    expect(endedAt - stoppedAt).toBeLessThan(1_000);
    // The runner's thread only moved a few printed lines: it idled, and its timer kept its pace.
    expect(busy).toBeLessThan(0.5);
    expect(ticks.length).toBeGreaterThanOrEqual(20);
    expect(Math.max(...gaps)).toBeLessThan(250);

    // The worker was terminated: the lines it printed every few milliseconds stop coming.
    const thread = watch.threads[0]!;
    expect(thread.terminatedAt).toBeGreaterThanOrEqual(stoppedAt);
    const printedBefore = thread.messages.filter((m) => m.at < stoppedAt).length;
    expect(printedBefore).toBeGreaterThan(3);
    await sleep(300);
    const settled = thread.messages.length;
    await sleep(500);
    expect(thread.messages.length).toBe(settled);
  });

  it("ends a tight loop at the time limit by terminating its worker", async () => {
    const watch = watching();
    const outcome = program(`while (true) {}`, { limits: { ...SPIN, timeoutMs: 300 }, start: watch.start });
    while (watch.threads.length === 0) await sleep(5);
    const readyAt = await watch.threads[0]!.first("ready");
    const result = await outcome;
    expect(result).toEqual({
      ok: false,
      reason: { type: "limit", message: expect.stringContaining("ran longer than 300 ms") },
      printed: "",
    });
    const terminatedAt = watch.threads[0]!.terminatedAt!;
    expect(terminatedAt - readyAt).toBeGreaterThanOrEqual(290);
    expect(terminatedAt - readyAt).toBeLessThan(1_300);
  });

  it("terminates the worker when the program ends, so a function it left running makes no more calls", async () => {
    const watch = watching();
    const made: string[] = [];
    const result = await program(
      `async function later() { let n = 0; while (n < 300000) n++; await tools.probe({ late: true }); }
       later(); console.log("top level done");`,
      {
        start: watch.start,
        callTool: async (_tool, params) => {
          made.push(JSON.stringify(params));
          return { ok: true, output: "ok" };
        },
      },
    );
    expect(result).toEqual({ ok: true, output: "top level done" });
    expect(watch.threads[0]!.terminatedAt).toBeDefined();
    await sleep(500);
    expect(made).toEqual([]);
  });
});

describe("execute's worker: a call aborted before it starts", () => {
  it("starts no worker and says it was aborted", async () => {
    const watch = watching();
    const controller = new AbortController();
    controller.abort();
    const outcome = await program(`while (true) {}`, { signal: controller.signal, start: watch.start });
    expect(outcome).toEqual({ ok: false, reason: { type: "limit", message: "the call was aborted." }, printed: "" });
    expect(watch.threads).toEqual([]);
  });
});

describe("execute's worker: when the worker fails", () => {
  let dir: string;
  const entry = async (name: string, text: string) => {
    dir ??= await mkdtemp(join(tmpdir(), "wb-execute-worker-"));
    const path = join(dir, name);
    await writeFile(path, text);
    return pathToFileURL(path);
  };

  it("a worker that runs out of memory mid-program is a clear error with what it printed; the next program runs", async () => {
    const outcome = await program(
      `console.log("building"); const all = []; while (true) all.push({ n: all.length, text: "row " + all.length, list: [1, 2, 3] });`,
      { limits: { ...SPIN, maxValueSize: 1e12, maxAllocation: 1e12 }, start: () => startNodeProgramThread(undefined, 16) },
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.reason.type).toBe("worker-crash");
    expect(outcome.reason.message).toMatch(/memory/i);
    expect(outcome.printed).toBe("building");
    expect(await program(`return 6 * 7;`)).toEqual({ ok: true, output: "42" });
  });

  it("a worker that exits once it has the program is a crash, named with its exit code", async () => {
    const url = await entry(
      "exits.mjs",
      `import { parentPort } from "node:worker_threads";
       parentPort.on("message", () => process.exit(3));
       parentPort.postMessage({ kind: "ready" });`,
    );
    const outcome = await program(`return 1;`, { start: () => startNodeProgramThread(url) });
    expect(outcome).toEqual({ ok: false, reason: { type: "worker-crash", message: "the worker exited with code 3" }, printed: "" });
  });

  it("a worker whose script is missing, or that cannot be made at all, fails to start with the reason", async () => {
    const missing = await program(`return 1;`, { start: () => startNodeProgramThread(new URL("./no-such-entry.mjs", import.meta.url)) });
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.reason.type).toBe("worker-start");
      expect(missing.reason.message).toContain("no-such-entry.mjs");
    }
    const refused = await program(`return 1;`, {
      start: () => {
        throw new Error("Worker is not defined");
      },
    });
    expect(refused).toEqual({ ok: false, reason: { type: "worker-start", message: "Worker is not defined" }, printed: "" });
  });

  it("reaches the model as a tool error that says what happened and what to do", async () => {
    const o = await openCodeMode(
      {},
      {
        start: () => {
          throw new Error("Worker is not defined");
        },
      },
    );
    opened.push(o);
    const { call, inner } = await o.program(`await tools.read({ filePath: "a.txt" });`);
    expect(call.status).toBe("error");
    expect(call.error).toBe(
      "Code Mode could not start the worker that runs programs (Worker is not defined). Nothing ran; try again, or do the work with direct tool calls.",
    );
    expect(inner).toEqual([]);
  });
});

describe("execute's worker: what crosses", () => {
  it("a tool receives what the host's JSON makes of the program's value; a cyclic value is an error the program catches", async () => {
    const received: Array<Record<string, unknown>> = [];
    const outcome = await program(
      `const cyclic = { name: "loop" }; cyclic.self = cyclic;
       let caught = "nothing";
       try { await tools.probe({ cyclic }); } catch (e) { caught = e.name + ": " + e.message; }
       await tools.probe({ fn: () => 1, u: undefined, n: NaN, inf: -Infinity, nested: [undefined, () => 2, null, { deep: [1, "two"] }],
         p: Promise.resolve(1), "__proto__": { polluted: true }, constructor: "c", "": 0 });
       return caught;`,
      {
        callTool: async (_tool, params) => {
          received.push(params);
          return { ok: true, output: "ok" };
        },
      },
    );
    expect(outcome).toEqual({ ok: true, output: "TypeError: Converting circular structure to JSON" });
    // The independent answer: the host's own JSON of the same value (`__proto__` as an own key, as the program wrote it).
    const host = {
      fn: () => 1,
      u: undefined,
      n: Number.NaN,
      inf: Number.NEGATIVE_INFINITY,
      nested: [undefined, () => 2, null, { deep: [1, "two"] }],
      p: Promise.resolve(1),
      ["__proto__"]: { polluted: true },
      constructor: "c",
      "": 0,
    };
    expect(received).toHaveLength(1);
    expect(JSON.stringify(received[0])).toBe(JSON.stringify(host));
    expect(Object.hasOwn(received[0]!, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a tool's output reaches the program whole: a lone surrogate, NUL, and 300,000 characters", async () => {
    const output = `\uD800\u0000${"é".repeat(300_000)}\uDFFF`;
    const outcome = await program(
      `const out = await tools.probe({});
       return [out.length, out.charCodeAt(0), out.charCodeAt(1), out.charCodeAt(2), out.charCodeAt(out.length - 1)].join(" ");`,
      { callTool: async () => ({ ok: true, output }) },
    );
    expect(outcome).toEqual({
      ok: true,
      output: [output.length, output.charCodeAt(0), output.charCodeAt(1), output.charCodeAt(2), output.charCodeAt(output.length - 1)].join(
        " ",
      ),
    });
  });
});

/** A worker that is not ours: it answers "ready", then sends `messages` once it has the program. */
function rogue(messages: unknown[]): StartProgramThread {
  return () => {
    let onMessage: (message: unknown) => void = () => {};
    const thread: ProgramThread = {
      post(message: ToProgram) {
        if (message.kind === "run") for (const sent of messages) queueMicrotask(() => onMessage(sent));
      },
      onMessage(handler) {
        onMessage = handler;
        queueMicrotask(() => handler({ kind: "ready" }));
      },
      onFailure() {},
      terminate() {},
    };
    return thread;
  };
}

describe("execute's worker: the runner acts on no message outside the protocol", () => {
  const calls: string[] = [];
  const callTool = async (tool: string): Promise<ToolAnswer> => {
    calls.push(tool);
    return { ok: true, output: "ok" };
  };
  afterEach(() => {
    calls.length = 0;
  });

  it("refuses a call of a tool the program may not call (execute, or one not offered), making no call", async () => {
    for (const tool of ["execute", "bash"]) {
      const outcome = await program("", { start: rogue([{ kind: "call", id: 0, tool, params: "{}" }]), callTool });
      expect(outcome).toEqual({
        ok: false,
        reason: { type: "protocol", message: `a call of a tool it may not call (${tool})` },
        printed: "",
      });
    }
    expect(calls).toEqual([]);
  });

  it("stops at a malformed message, at parameters that are not a JSON object, at printing past the limit, and at one call past the limit", async () => {
    for (const sent of [
      { kind: "call", id: -1, tool: 5 },
      { kind: "print" },
      { kind: "call", id: 0, tool: "probe", params: "[1]" },
      "done",
    ]) {
      const malformed = await program("", { start: rogue([sent]), callTool });
      expect(malformed.ok).toBe(false);
      if (!malformed.ok) expect(malformed.reason.type).toBe("protocol");
    }
    const flood = await program("", {
      limits: { maxOutputBytes: 100 },
      start: rogue([{ kind: "print", line: "x".repeat(200) }]),
      callTool,
    });
    expect(flood).toEqual({ ok: false, reason: { type: "protocol", message: "more printed output than its limit" }, printed: "" });
    const long = await program("", {
      limits: { maxOutputBytes: 100 },
      start: rogue([{ kind: "done", output: "y".repeat(101) }]),
      callTool,
    });
    expect(long).toEqual({ ok: false, reason: { type: "protocol", message: "more output than its limit" }, printed: "" });
    const notJson = await program("", { start: rogue([{ kind: "call", id: 0, tool: "probe", params: "{" }]), callTool });
    expect(notJson).toEqual({
      ok: false,
      reason: { type: "protocol", message: "a call whose parameters are not a JSON object" },
      printed: "",
    });
    const tooMany = await program("", {
      limits: { maxToolCalls: 2 },
      start: rogue([0, 1, 2].map((id) => ({ kind: "call", id, tool: "probe", params: "{}" }))),
      callTool,
    });
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.reason).toEqual({ type: "limit", message: expect.stringContaining("called more than 2 tools") });
    expect(calls).toEqual(["probe", "probe"]);
  });
});
