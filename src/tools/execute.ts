/**
 * execute (OpenCode V2's Code Mode; behind its flag, default off): the model writes a short JavaScript
 * program that calls the other tools as `await tools.<name>(args)`. The program runs in our own confined
 * interpreter (./execute/interpreter.ts: acorn's tree, walked with no eval, modules, timers or host
 * objects), within limits on tool calls, time, steps and output. Each inner call goes through the session's
 * runner as its own call (permissions, hooks, truncation, its own card, named in this call's metadata so the
 * page shows it under this card), and ends when this call is aborted or its program stops.
 */
import { z } from "zod";
import { errorMessage } from "../base/error-message.js";
import { Interpreter, parseProgram, ProgramError } from "./execute/interpreter.js";
import { DEFAULT_LIMITS, type ExecuteLimits, LimitError } from "./execute/limits.js";
import { display, ThrowSignal } from "./execute/values.js";
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
function failure(error: unknown, printed: string): Error {
  const said = printed ? `\n\nPrinted before it stopped:\n${printed}` : "";
  if (error instanceof LimitError) return new Error(`The program was stopped: ${error.message}${said}`);
  if (error instanceof ThrowSignal)
    return new Error(`The program threw an uncaught ${display(error.value, { allocate: () => {} })}${said}`);
  if (error instanceof ProgramError) return new Error(error.message);
  if (error instanceof RangeError)
    return new Error(`The program went too deep for the interpreter (${error.message}). Use loops instead of deep recursion.${said}`);
  return new Error(`The program failed: ${errorMessage(error)}${said}`);
}

/** The tool with the given limits (tests give small ones); `ExecuteTool` has V2's defaults. */
export function defineExecuteTool(limits: ExecuteLimits) {
  return Tool.define("execute", {
    description: DESCRIPTION.trim(),
    parameters,
    async execute(args, ctx) {
      const session = sessionOf(ctx, "execute");
      await ctx.ask({ permission: "execute", patterns: ["*"], always: ["*"], metadata: {} });
      const program = (() => {
        try {
          return parseProgram(args.code, limits);
        } catch (error) {
          throw failure(error, "");
        }
      })();

      const calls: ExecuteCallEntry[] = [];
      const report = () =>
        ctx.metadata({ title: `execute (${calls.length} tool calls)`, metadata: { calls: calls.map((entry) => ({ ...entry })) } });
      // Ends the inner calls still running when the program stops early (a limit, an uncaught throw).
      const stopInner = new AbortController();
      const interpreter = new Interpreter({
        limits,
        signal: ctx.abort,
        tools: session.toolIds().filter((id) => !REFUSED.has(id) && !HIDDEN.has(id)),
        refused: REFUSED,
        async callTool(tool, params) {
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
              stopInner.signal,
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
      report();

      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort: (() => void) | undefined;
      const stopped = new Promise<never>((_, reject) => {
        // A program waiting on a tool takes no steps, so the clock and the abort are also watched from outside.
        timer = setTimeout(() => reject(interpreter.budget.halt(interpreter.budget.timeout())), limits.timeoutMs);
        onAbort = () => reject(interpreter.budget.halt(new LimitError("aborted", "the call was aborted.")));
        ctx.abort.addEventListener("abort", onAbort, { once: true });
      });
      try {
        const result = await Promise.race([interpreter.run(program), stopped]);
        // The program is over once its top level ends: an async function it left running takes no more
        // steps and starts no more calls (no card may appear after this one ended); calls already started finish.
        interpreter.budget.halt(new LimitError("aborted", "the program had already ended."));
        await Promise.allSettled([...interpreter.pending]);
        const output = result.output === "" ? "(The program printed nothing and returned nothing.)" : result.output;
        return { title: `execute (${calls.length} tool calls)`, output, metadata: { calls } };
      } catch (error) {
        interpreter.budget.halt(error instanceof LimitError ? error : new LimitError("aborted", "the program ended."));
        stopInner.abort();
        await Promise.allSettled([...interpreter.pending]);
        throw failure(error, interpreter.printedSoFar());
      } finally {
        clearTimeout(timer);
        if (onAbort) ctx.abort.removeEventListener("abort", onAbort);
      }
    },
  });
}

export const ExecuteTool = defineExecuteTool(DEFAULT_LIMITS);
