/** One file operation of a patch, as parsed. Paths are as written in the patch (relative or absolute). */
export type PatchHunk =
  | { type: "add"; path: string; contents: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; movePath?: string; chunks: UpdateChunk[] };

/**
 * One `@@` section of an update. `oldLines` are the context and removed lines in order, `newLines` the
 * context and added lines; `context` is the text after `@@ ` (a line to locate before the old lines);
 * `endOfFile` is set by `*** End of File` (the old lines are expected at the end of the file).
 */
export interface UpdateChunk {
  context?: string;
  oldLines: string[];
  newLines: string[];
  endOfFile: boolean;
}

/**
 * What a verified patch will do to one file. Apply the changes in order: when a patch touches the same
 * file twice, the second change starts from the first one's `after`.
 */
export interface PlannedChange {
  type: "add" | "update" | "delete" | "move";
  /** Absolute path of the file the hunk names (for a move: the source). */
  path: string;
  /** `path` relative to the root (forward slashes), or absolute when it lies outside the root. */
  relativePath: string;
  /** Absolute destination of a move. */
  movePath?: string;
  /** `movePath` shown like `relativePath`. */
  moveRelativePath?: string;
  /** The file's text as read ("" for a new file); BOM and CRLF kept. */
  before: string;
  /** The text to write ("" for a delete); BOM and line endings of `before` kept. */
  after: string;
  /** Unified diff of the LF-normalized texts, common indentation trimmed. */
  diff: string;
  additions: number;
  deletions: number;
}

/** How the planner sees files. It only reads; nothing is written. */
export interface PatchIo {
  /** Relative patch paths are resolved against this directory. */
  root: string;
  /** The file's decoded text (BOM and CR characters left in), or undefined when there is no such file. */
  read(path: string): Promise<string | undefined>;
  isDirectory(path: string): Promise<boolean>;
}
