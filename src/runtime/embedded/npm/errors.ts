/**
 * An npm failure as npm reports it: a `code` (E404, EINTEGRITY, EUSAGE...) and the lines printed after
 * `npm error`, with npm's exit code. Everything the npm command throws on purpose is one of these.
 */
export class NpmError extends Error {
  constructor(
    readonly code: string | undefined,
    readonly lines: readonly string[],
    readonly exitCode = 1,
  ) {
    super(lines.join("\n"));
    this.name = "NpmError";
  }

  /** The text npm prints on stderr for this failure. */
  render(): string {
    const head = this.code ? [`npm error code ${this.code}`] : [];
    return [...head, ...this.lines.map((line) => (line ? `npm error ${line}` : "npm error"))].join("\n") + "\n";
  }
}

/** A registry's "not found", as npm words it: the URL asked and the spec that could not be satisfied. */
export function notFound(url: string, spec: string, status: number, reason: string): NpmError {
  return new NpmError(`E${status}`, [
    `${status} ${reason} - GET ${url}`,
    `${status}`,
    `${status}  The requested resource '${spec}' could not be found or you do not have permission to access it.`,
  ]);
}

/**
 * A fetch the person refused (the webfetch permission, asked through the command's gate). Not a network
 * failure: nothing falls back to the cache after it, so a refusal installs nothing.
 */
export function fetchRefused(url: string, reason: string): NpmError {
  return new NpmError("EFETCHREFUSED", [
    `request to ${url} was not made: ${reason}`,
    "Nothing was installed. Allow the fetch (the webfetch permission) and run the install again.",
  ]);
}
