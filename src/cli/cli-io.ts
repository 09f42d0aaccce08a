/**
 * A command's input and output, and the usage error (exit 2): what every `workbench` command needs before
 * it loads anything else, so `--help` and a wrong command line answer at once.
 */

/** The command line itself was wrong: printed with the usage, exit 2. */
export class UsageError extends Error {}

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  stdin(): Promise<string>;
  /** Standard input is a terminal (then `run` does not wait for piped text). */
  stdinIsTTY?: boolean;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
};
