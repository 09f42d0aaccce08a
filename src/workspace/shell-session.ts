import type { ExecResult, OutputChunk, Runtime, ShellState } from "../runtime/types.js";
import { ShellCompleter, type CompletionResult } from "./shell-completion.js";

/**
 * What a terminal is: one shell whose cwd and exported variables carry from one command to the
 * next (the bash tool, by contrast, starts every call afresh).
 */
export class ShellSession {
  private state: ShellState | undefined;
  private readonly completer: ShellCompleter;

  constructor(private readonly runtime: () => Runtime) {
    this.completer = new ShellCompleter(runtime);
  }

  /** Tab completion for the line up to the cursor, from this shell's cwd. */
  complete(before: string): Promise<CompletionResult> {
    return this.completer.complete({ before, cwd: this.cwd });
  }

  get cwd(): string {
    return this.state?.cwd ?? this.runtime().root;
  }

  /** Forgets cwd and variables, as after switching to another runtime. */
  reset(): void {
    this.state = undefined;
    this.completer.reset();
  }

  async run(command: string, options: { signal?: AbortSignal; onOutput?: (chunk: OutputChunk) => void } = {}): Promise<ExecResult> {
    const runtime = this.runtime();
    const result = await runtime.exec(command, {
      cwd: this.cwd,
      env: this.state?.env,
      signal: options.signal,
      onOutput: options.onOutput,
      captureState: runtime.capabilities.shellState,
    });
    if (result.state) this.state = result.state;
    return result;
  }
}
