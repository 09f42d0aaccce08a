/**
 * The messages between the execute tool (on the runner's thread) and the worker its program runs in. Only
 * text and plain JSON data cross: the program, the tool names, each inner call's parameters (already JSON
 * data in the worker), each call's answer, the printed lines. The runner checks every message the worker
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
  /** An inner tool call; the runner answers with the same id. */
  z.object({ kind: z.literal("call"), id: z.number().int().nonnegative(), tool: z.string(), params: z.record(z.string(), z.unknown()) }),
  /** The program's top level ended: what it printed, then its returned value. */
  z.object({ kind: z.literal("done"), output: z.string() }),
  z.object({ kind: z.literal("failed"), failure: programFailure }),
]);
export type FromProgram = z.infer<typeof fromProgram>;
