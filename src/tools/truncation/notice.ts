/**
 * The words the model reads when its output was cut. They are OpenCode's, character for character, so that
 * prompts and agents tuned on OpenCode react the same way (open the saved file with Grep/Read, or hand it
 * to a Task subagent).
 */
import type { TruncationDirection, TruncationHint } from "./options.js";

type TruncationUnit = "lines" | "bytes";

/** `savedBytes`: the saved copy was cut after that many bytes (see MAX_SAVED_BYTES); absent when it is whole. */
function truncationHint(outputPath: string, hint: TruncationHint, savedBytes?: number): string {
  const saved =
    savedBytes === undefined
      ? `The tool call succeeded but the output was truncated. Full output saved to: ${outputPath}\n`
      : `The tool call succeeded but the output was truncated. The output was too large to save in full: its first ${savedBytes} bytes are saved to: ${outputPath}\n`;
  return hint.taskAvailable
    ? `${saved}Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context.`
    : `${saved}Use Grep to search the full content or Read with offset/limit to view specific sections.`;
}

export interface TruncatedParts {
  preview: string;
  removed: number;
  unit: TruncationUnit;
  direction: TruncationDirection;
  outputPath: string;
  hint: TruncationHint;
  /** Set when the saved copy was cut after this many bytes. */
  savedBytes?: number;
}

/** The preview sits where the kept text was: first for head, last for tail. */
export function formatTruncated(parts: TruncatedParts): string {
  const marker = `...${parts.removed} ${parts.unit} truncated...`;
  const hint = truncationHint(parts.outputPath, parts.hint, parts.savedBytes);
  return parts.direction === "head" ? `${parts.preview}\n\n${marker}\n\n${hint}` : `${marker}\n\n${hint}\n\n${parts.preview}`;
}
