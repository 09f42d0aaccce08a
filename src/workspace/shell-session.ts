import type { ExecResult, OutputChunk, Runtime, ShellState } from "../runtime/types.js";

/**
 * What a terminal is: one shell whose cwd and exported variables carry from one command to the
 * next (the bash tool, by contrast, starts every call afresh).
 */
export class ShellSession {
  private state: ShellState | undefined;

  constructor(private readonly runtime: () => Runtime) {}

  get cwd(): string {
    return this.state?.cwd ?? this.runtime().root;
  }

  /** Forgets cwd and variables, as after switching to another runtime. */
  reset(): void {
    this.state = undefined;
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
