/** A pip failure the person can act on: printed as `ERROR: ...` lines, exit code 1 as pip's. */
export class PipError extends Error {
  constructor(
    readonly lines: string[],
    readonly exitCode = 1,
  ) {
    super(lines.join("\n"));
    this.name = "PipError";
  }

  render(): string {
    return `${this.lines.map((line, index) => (index === 0 ? `ERROR: ${line}` : line)).join("\n")}\n`;
  }
}
