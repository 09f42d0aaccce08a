import type { PlannedChange } from "./types.js";

/**
 * The tool's output: one line per change, `A` added, `D` deleted, `M` updated (a moved file is listed
 * under its new path). Paths use forward slashes; a file the patch touched twice is listed once.
 */
export function formatSummary(changes: readonly PlannedChange[]): string {
  const lines: string[] = [];
  for (const change of changes) {
    const letter = change.type === "add" ? "A" : change.type === "delete" ? "D" : "M";
    const shown = change.type === "move" ? (change.moveRelativePath ?? change.movePath ?? change.relativePath) : change.relativePath;
    const line = `${letter} ${shown.replace(/\\/g, "/")}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return `Success. Updated the following files:\n${lines.join("\n")}`;
}
