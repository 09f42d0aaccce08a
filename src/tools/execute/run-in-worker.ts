/**
 * The runner's side of an execute program: starts its worker, sends the program, runs each inner call the
 * worker asks for (through `callTool`, on this thread, exactly as a direct call) and answers it, and ends
 * with the program's output or why it stopped. The time limit and an abort terminate the worker at once, so
 * a tight loop with no tool call ends as fast as one waiting on a tool, and this thread never runs the
 * program: it only moves messages.
 */
import { errorMessage } from "../../base/error-message.js";
import { type ExecuteLimits, timeoutError, toolCallsError } from "./limits.js";
import type { ProgramThread, StartProgramThread } from "./program-thread.js";
import { type FromProgram, fromProgram, type ProgramFailure, type ToolAnswer } from "./protocol.js";

/** Why a program stopped, as the runner saw it: the worker's own reasons, or the worker's failure. */
export type StopReason = ProgramFailure | { type: "worker-start" | "worker-crash" | "protocol"; message: string };

/** How long a worker may take to load before the call gives up on it (its program's clock starts after). */
const START_TIMEOUT_MS = 30_000;

export type ProgramOutcome = { ok: true; output: string } | { ok: false; reason: StopReason; printed: string };

export interface ProgramRun {
  code: string;
  limits: ExecuteLimits;
  /** Tools the program may call; any other name the worker asks for is refused here too. */
  tools: readonly string[];
  refused: ReadonlyMap<string, string>;
  /** The execute call's abort. */
  signal: AbortSignal;
  start: StartProgramThread;
  /** Runs one inner call; `signal` ends it when the program stops early. */
  callTool(tool: string, params: Record<string, unknown>, signal: AbortSignal): Promise<ToolAnswer>;
}

/** A call's parameters from their JSON text: an object, its `__proto__` an own key as JSON.parse makes it. */
function parseParams(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function runProgramInWorker(run: ProgramRun): Promise<ProgramOutcome> {
  const printed: string[] = [];
  /** Inner calls started and not yet settled: the program's outcome waits for them. */
  const pending = new Set<Promise<unknown>>();
  const stopInner = new AbortController();
  const allowed = new Set(run.tools);
  let calls = 0;
  let printedBytes = 0;
  const encoder = new TextEncoder();
  let thread: ProgramThread | undefined;
  let ready = false;

  let settle!: (outcome: ProgramOutcome) => void;
  const ended = new Promise<ProgramOutcome>((resolve) => (settle = resolve));
  let over = false;
  /** The first end wins; the worker is terminated at once, whatever it was doing. */
  const finish = (outcome: ProgramOutcome) => {
    if (over) return;
    over = true;
    thread?.terminate();
    if (!outcome.ok) stopInner.abort();
    settle(outcome);
  };
  const stop = (reason: StopReason) => finish({ ok: false, reason, printed: printed.join("\n") });

  // The program's clock starts once its worker is ready: a slow start (a loaded machine) is not its time.
  let timer = setTimeout(
    () => stop({ type: "worker-start", message: `it was not ready after ${START_TIMEOUT_MS / 1000} s` }),
    START_TIMEOUT_MS,
  );
  const onAbort = () => stop({ type: "limit", message: "the call was aborted." });
  run.signal.addEventListener("abort", onAbort, { once: true });
  if (run.signal.aborted) onAbort();

  const callTool = (id: number, tool: string, params: Record<string, unknown>) => {
    const call = run
      .callTool(tool, params, stopInner.signal)
      .catch((error: unknown): ToolAnswer => ({ ok: false, error: errorMessage(error) }))
      .then((result) => {
        if (!over) thread?.post({ kind: "answer", id, result });
      });
    pending.add(call);
    void call.finally(() => pending.delete(call));
  };

  const receive = (raw: unknown) => {
    if (over) return;
    const parsed = fromProgram.safeParse(raw);
    if (!parsed.success) return stop({ type: "protocol", message: `a message outside the protocol (${parsed.error.issues[0]?.message})` });
    const message: FromProgram = parsed.data;
    switch (message.kind) {
      case "ready":
        if (ready) return;
        ready = true;
        clearTimeout(timer);
        timer = setTimeout(() => stop({ type: "limit", message: timeoutError(run.limits).message }), run.limits.timeoutMs);
        thread?.post({ kind: "run", code: run.code, limits: run.limits, tools: [...run.tools], refused: [...run.refused] });
        return;
      case "print":
        // The interpreter stops at this limit before it sends the line; a worker past it is not ours.
        printedBytes += encoder.encode(message.line).length + 1;
        if (printedBytes > run.limits.maxOutputBytes) return stop({ type: "protocol", message: "more printed output than its limit" });
        printed.push(message.line);
        return;
      case "call": {
        // The interpreter refuses these itself; checked again here, where the calls are made.
        if (!allowed.has(message.tool)) return stop({ type: "protocol", message: `a call of a tool it may not call (${message.tool})` });
        if (++calls > run.limits.maxToolCalls) return stop({ type: "limit", message: toolCallsError(run.limits).message });
        const params = parseParams(message.params);
        if (!params) return stop({ type: "protocol", message: "a call whose parameters are not a JSON object" });
        return callTool(message.id, message.tool, params);
      }
      case "done":
        if (encoder.encode(message.output).length > run.limits.maxOutputBytes)
          return stop({ type: "protocol", message: "more output than its limit" });
        return finish({ ok: true, output: message.output });
      case "failed":
        return stop(message.failure);
    }
  };

  try {
    // Aborted already: no worker is started.
    if (!over) thread = await run.start();
  } catch (error) {
    stop({ type: "worker-start", message: errorMessage(error) });
  }
  if (thread && over) thread.terminate();
  else if (thread) {
    thread.onMessage(receive);
    thread.onFailure((reason) => stop({ type: ready ? "worker-crash" : "worker-start", message: reason }));
  }

  try {
    const outcome = await ended;
    // Calls already started finish (a write half done is not cut short by a program that ended); their
    // answers reach no one.
    await Promise.allSettled([...pending]);
    return outcome;
  } finally {
    clearTimeout(timer);
    run.signal.removeEventListener("abort", onAbort);
  }
}
