/**
 * execute (OpenCode V2's Code Mode; behind its flag, default off): the model writes a short JavaScript
 * program that calls the other tools as `await tools.<name>(args)`. The program runs in our own confined
 * interpreter (./execute/interpreter.ts: acorn's tree, walked with no eval, modules, timers or host
 * objects) in a worker of its own (./execute/run-in-worker.ts), within limits on tool calls, time, steps and
 * output. Each inner call is sent back to this thread and goes through the session's runner as its own call (permissions, hooks, truncation, its own card, named in this call's metadata so the
 * page shows it under this card), and ends when this call is aborted or its program stops.
 */
import { z } from "zod";
import { errorMessage } from "../base/error-message.js";
import { DEFAULT_LIMITS, type ExecuteLimits } from "./execute/limits.js";
import type { StartProgramThread } from "./execute/program-thread.js";
import { startProgramThread } from "./execute/start-program-thread.js";
import { runProgramInWorker, type StopReason } from "./execute/run-in-worker.js";
import { sessionOf } from "./ports/session-of.js";
import { Tool } from "./tool.js";
import DESCRIPTION from "./execute.txt?raw";

const parameters = z.object({
  code: z
    .string()
    .min(1, "Write the program to run")
    .describe("The JavaScript program. Call tools as `await tools.<name>({ ...parameters })`; console.log what you need back."),
});

/** Tools a program may not call, with the reason it is told. */
const REFUSED = new Map([
  ["execute", "execute cannot call execute: write the whole program in one execute call."],
  ["batch", "batch cannot run inside execute: start the calls together and await them with Promise.all([...])."],
]);
const HIDDEN = new Set(["invalid"]);

/** One inner call as this call's metadata names it (the page draws its card from `callID`). */
interface ExecuteCallEntry {
  tool: string;
  callID?: string;
  status: "running" | "completed" | "error";
  error?: string;
}

/** Tells the model why the program stopped, with what it printed until then. */
function failure(reason: StopReason, printed: string): Error {
  const said = printed ? `\n\nPrinted before it stopped:\n${printed}` : "";
  switch (reason.type) {
    case "limit":
      return new Error(`The program was stopped: ${reason.message}${said}`);
    case "throw":
      return new Error(`The program threw an uncaught ${reason.message}${said}`);
    case "program":
      return new Error(reason.message);
    case "depth":
      return new Error(`The program went too deep for the interpreter (${reason.message}). Use loops instead of deep recursion.${said}`);
    case "worker-start":
      return new Error(
        `Code Mode could not start the worker that runs programs (${reason.message}). Nothing ran; try again, or do the work with direct tool calls.`,
      );
    case "worker-crash":
      return new Error(`The worker running the program stopped unexpectedly (${reason.message}); the program did not finish.${said}`);
    case "protocol":
      return new Error(`The worker running the program was stopped: it sent ${reason.message}.${said}`);
    case "internal":
      return new Error(`The program failed: ${reason.message}${said}`);
  }
}

/**
 * The tool with the given limits (tests give small ones) and way of starting the program's worker (tests
 * give one that fails); `ExecuteTool` has V2's defaults and the host's own worker.
 */
export function defineExecuteTool(limits: ExecuteLimits, start: StartProgramThread = startProgramThread) {
  return Tool.define("execute", {
    description: DESCRIPTION.trim(),
    parameters,
    async execute(args, ctx) {
      const session = sessionOf(ctx, "execute");
      await ctx.ask({ permission: "execute", patterns: ["*"], always: ["*"], metadata: {} });

      const calls: ExecuteCallEntry[] = [];
      const report = () =>
        ctx.metadata({ title: `execute (${calls.length} tool calls)`, metadata: { calls: calls.map((entry) => ({ ...entry })) } });
      report();
      const outcome = await runProgramInWorker({
        code: args.code,
        limits,
        tools: session.toolIds().filter((id) => !REFUSED.has(id) && !HIDDEN.has(id)),
        refused: REFUSED,
        signal: ctx.abort,
        start,
        async callTool(tool, params, signal) {
          const entry: ExecuteCallEntry = { tool, status: "running" };
          calls.push(entry);
          report();
          try {
            const result = await session.runTool(
              tool,
              params,
              (callID) => {
                entry.callID = callID;
                report();
              },
              signal,
            );
            entry.status = result.status;
            if (result.status === "completed") return { ok: true, output: result.output ?? "" };
            entry.error = result.error ?? "failed";
            return { ok: false, error: entry.error };
          } catch (error) {
            entry.status = "error";
            entry.error = errorMessage(error);
            return { ok: false, error: entry.error };
          } finally {
            report();
          }
        },
      });
      if (!outcome.ok) throw failure(outcome.reason, outcome.printed);
      const output = outcome.output === "" ? "(The program printed nothing and returned nothing.)" : outcome.output;
      return { title: `execute (${calls.length} tool calls)`, output, metadata: { calls } };
    },
  });
}

export const ExecuteTool = defineExecuteTool(DEFAULT_LIMITS);
