import { structuredPatch } from "diff";
import { prefixedPath } from "./quote.js";
import { abbrev } from "./repo.js";
import type { FileVersion } from "./trees.js";

const ZERO = "0000000";
const decoder = new TextDecoder();

/** git calls a file binary when its first 8000 bytes hold a NUL. */
function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

const modeText = (mode: number) => mode.toString(8).padStart(6, "0");

function range(start: number, count: number): string {
  const first = count === 0 ? start - 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/**
 * git's default "function name" after a hunk header: the nearest line above the hunk (in the old
 * file) that starts with a letter, `_` or `$`, trimmed, at most 80 bytes. A hunk whose search finds
 * nothing keeps the previous hunk's name, as xdiff does.
 */
function functionFinder(oldLines: string[]) {
  let searchedDownTo = -1;
  let last = "";
  return (hunkStart: number): string => {
    for (let line = hunkStart - 1; line > searchedDownTo && line >= 0; line--) {
      const text = oldLines[line] ?? "";
      if (/^[A-Za-z_$]/.test(text)) {
        const bytes = new TextEncoder().encode(text).slice(0, 80);
        last = decoder.decode(bytes).replace(/\s+$/, "");
        break;
      }
    }
    searchedDownTo = hunkStart - 1;
    return last;
  };
}

export interface FileDiff {
  text: string;
  insertions: number;
  deletions: number;
}

/** Lines of a text, without the empty string after a final newline. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** One file's change in git's format (`diff --git`, the index line, `---`/`+++`, hunks); empty when nothing differs. */
export async function fileDiff(
  path: string,
  before: FileVersion | undefined,
  after: FileVersion | undefined,
  context = 3,
): Promise<FileDiff> {
  if (!before && !after) return { text: "", insertions: 0, deletions: 0 };
  const sameContent = before?.oid === after?.oid;
  if (sameContent && before?.mode === after?.mode) return { text: "", insertions: 0, deletions: 0 };
  let text = `diff --git ${prefixedPath("a/", path)} ${prefixedPath("b/", path)}\n`;
  if (!before) text += `new file mode ${modeText(after!.mode)}\n`;
  else if (!after) text += `deleted file mode ${modeText(before.mode)}\n`;
  else if (before.mode !== after.mode) text += `old mode ${modeText(before.mode)}\nnew mode ${modeText(after.mode)}\n`;
  if (sameContent) return { text, insertions: 0, deletions: 0 };
  const modeSuffix = before && after && before.mode === after.mode ? ` ${modeText(before.mode)}` : "";
  text += `index ${before ? abbrev(before.oid) : ZERO}..${after ? abbrev(after.oid) : ZERO}${modeSuffix}\n`;
  const oldBytes = before ? await before.bytes() : new Uint8Array();
  const newBytes = after ? await after.bytes() : new Uint8Array();
  const oldName = before ? prefixedPath("a/", path) : "/dev/null";
  const newName = after ? prefixedPath("b/", path) : "/dev/null";
  // git ends a ---/+++ name holding a space with a tab, so that patch tools find where it ends.
  const named = (name: string) => (name !== "/dev/null" && path.includes(" ") ? `${name}\t` : name);
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    return { text: `${text}Binary files ${oldName} and ${newName} differ\n`, insertions: 0, deletions: 0 };
  }
  const oldText = decoder.decode(oldBytes);
  const newText = decoder.decode(newBytes);
  const patch = structuredPatch("", "", oldText, newText, undefined, undefined, { context });
  if (patch.hunks.length === 0) return { text, insertions: 0, deletions: 0 };
  text += `--- ${named(oldName)}\n+++ ${named(newName)}\n`;
  const functionName = functionFinder(linesOf(oldText));
  let insertions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    const name = functionName(hunk.oldStart - 1);
    text += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@${name ? ` ${name}` : ""}\n`;
    for (const line of hunk.lines) {
      if (line.startsWith("+")) insertions++;
      else if (line.startsWith("-")) deletions++;
      text += `${line}\n`;
    }
  }
  return { text, insertions, deletions };
}

/** Counts a change's added and removed lines, as `git commit` and `--stat` summarise it. */
export async function lineCounts(
  before: FileVersion | undefined,
  after: FileVersion | undefined,
): Promise<{ insertions: number; deletions: number }> {
  const { insertions, deletions } = await fileDiff("x", before, after);
  return { insertions, deletions };
}
