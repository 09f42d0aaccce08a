/**
 * The worker's side of an execute program, whatever starts the worker (a page's module worker, a
 * worker_threads thread): it says it is ready, takes one program, runs it in the interpreter, sends each
 * printed line and each tool call to the runner, and ends with the output or the reason it stopped. The
 * runner terminates the worker afterwards; nothing here outlives one program.
 */
import { Interpreter, parseProgram, ProgramError } from "./interpreter.js";
import { LimitError } from "./limits.js";
import type { FromProgram, ProgramFailure, ToolAnswer, ToProgram } from "./protocol.js";
import { display, ThrowSignal } from "./values.js";

/** The worker's one channel to the runner. */
export interface RunnerPort {
  post(message: FromProgram): void;
  listen(handler: (message: ToProgram) => void): void;
}

function describeFailure(error: unknown): ProgramFailure {
  if (error instanceof LimitError) return { type: "limit", message: error.message };
  if (error instanceof ThrowSignal) return { type: "throw", message: display(error.value, { allocate: () => {} }) };
  if (error instanceof ProgramError) return { type: "program", message: error.message };
  if (error instanceof RangeError) return { type: "depth", message: error.message };
  return { type: "internal", message: error instanceof Error ? error.message : String(error) };
}

export function serveProgram(port: RunnerPort): void {
  const waiting = new Map<number, (answer: ToolAnswer) => void>();
  let nextCall = 0;
  let started = false;

  async function run(message: Extract<ToProgram, { kind: "run" }>): Promise<void> {
    try {
      const program = parseProgram(message.code, message.limits);
      const interpreter = new Interpreter({
        limits: message.limits,
        // Stop and the time limit terminate this worker from outside; nothing inside needs to hear them.
        signal: new AbortController().signal,
        tools: message.tools,
        refused: new Map(message.refused),
        onPrint: (line) => port.post({ kind: "print", line }),
        callTool: (tool, params) =>
          new Promise<ToolAnswer>((resolve) => {
            const id = nextCall++;
            waiting.set(id, resolve);
            port.post({ kind: "call", id, tool, params: JSON.stringify(params) });
          }),
      });
      const { output } = await interpreter.run(program);
      port.post({ kind: "done", output });
    } catch (error) {
      port.post({ kind: "failed", failure: describeFailure(error) });
    }
  }

  port.listen((message) => {
    if (message.kind === "run") {
      // One program per worker: a second would share the first's budget and calls.
      if (started) return;
      started = true;
      void run(message);
    } else if (message.kind === "answer") {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message.result);
    }
  });
  port.post({ kind: "ready" });
}
