/**
 * The messages between the execute tool (on the runner's thread) and the worker its program runs in. Only
 * text crosses: the program, the tool names, each inner call's parameters (as JSON text), each call's
 * answer, the printed lines. The runner checks every message the worker
 * sends against these schemas before acting on it, so even a worker gone wrong can only ask for the calls a
 * program could make.
 */
import { z } from "zod";
import type { ExecuteLimits } from "./limits.js";

/** What the runner tells the worker. */
export type ToProgram =
  | {
      kind: "run";
      code: string;
      limits: ExecuteLimits;
      tools: string[];
      /** Tools the program may not call, with the reason it is told. */
      refused: Array<[string, string]>;
    }
  | { kind: "answer"; id: number; result: ToolAnswer };

const toolAnswer = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), output: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type ToolAnswer = z.infer<typeof toolAnswer>;

/** Why a program stopped, sorted so the runner words it for the model. */
const programFailure = z.object({
  /**
   * limit: a limit was reached (the message names it); throw: an uncaught throw (the message shows the
   * value); program: it cannot run as written (parse, unsupported syntax); depth: the host's stack ran
   * out; internal: the interpreter itself failed.
   */
  type: z.enum(["limit", "throw", "program", "depth", "internal"]),
  message: z.string(),
});
export type ProgramFailure = z.infer<typeof programFailure>;

/** What the worker tells the runner. */
export const fromProgram = z.discriminatedUnion("kind", [
  /** Loaded and listening: the runner sends the program. */
  z.object({ kind: z.literal("ready") }),
  /** One console.log line, as it is printed. */
  z.object({ kind: z.literal("print"), line: z.string() }),
  /**
   * An inner tool call; the runner answers with the same id. The parameters cross as JSON text and are
   * parsed on the runner's side: a structured clone, or a schema's copy, would drop an own `__proto__` key.
   */
  z.object({ kind: z.literal("call"), id: z.number().int().nonnegative(), tool: z.string(), params: z.string() }),
  /** The program's top level ended: what it printed, then its returned value. */
  z.object({ kind: z.literal("done"), output: z.string() }),
  z.object({ kind: z.literal("failed"), failure: programFailure }),
]);
export type FromProgram = z.infer<typeof fromProgram>;
