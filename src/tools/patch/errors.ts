export type PatchErrorKind =
  /** The patch text does not follow the grammar. */
  | "invalid"
  /** Nothing between `*** Begin Patch` and `*** End Patch`. */
  | "empty"
  /** Text between the markers, but no file operation in it. */
  | "no_hunks"
  /** An update names a file that is missing or a folder. */
  | "missing_file"
  /** An `@@ context` line was not found. */
  | "context_not_found"
  /** The old lines of a chunk were not found. */
  | "lines_not_found"
  /** A delete names a file that is missing or a folder. */
  | "delete_failed"
  /** An add or a move would write where a folder is. */
  | "target_is_directory";

/** Every failure of parsing or planning. The tool shows `message` after "apply_patch verification failed: ". */
export class PatchError extends Error {
  readonly kind: PatchErrorKind;

  constructor(kind: PatchErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PatchError";
    this.kind = kind;
  }
}

export function isPatchError(error: unknown): error is PatchError {
  return error instanceof PatchError;
}
