/**
 * A unified diff as side-by-side rows: the old file on the left, the new on the right, with line
 * numbers. Context lines sit on both sides; a run of removed lines and the run of added lines after it
 * are paired row by row (the longer run leaves blank cells), so a changed line faces its new version.
 */
import { parsePatch } from "diff";

export interface SideCell {
  no: number;
  text: string;
  kind: "ctx" | "del" | "add";
}

export type SideRow =
  | { type: "file"; old: string; new: string }
  | { type: "hunk"; header: string }
  | { type: "line"; left?: SideCell; right?: SideCell };

export function sideBySideRows(diff: string): SideRow[] {
  const rows: SideRow[] = [];
  for (const file of parsePatch(diff)) {
    if (file.oldFileName !== undefined || file.newFileName !== undefined) {
      rows.push({ type: "file", old: file.oldFileName ?? "", new: file.newFileName ?? "" });
    }
    for (const hunk of file.hunks) {
      rows.push({ type: "hunk", header: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
      let oldNo = hunk.oldStart;
      let newNo = hunk.newStart;
      let removed: SideCell[] = [];
      let added: SideCell[] = [];
      const pair = () => {
        for (let i = 0; i < Math.max(removed.length, added.length); i++) rows.push({ type: "line", left: removed[i], right: added[i] });
        removed = [];
        added = [];
      };
      for (const line of hunk.lines) {
        const mark = line[0];
        const text = line.slice(1);
        if (mark === "-") removed.push({ no: oldNo++, text, kind: "del" });
        else if (mark === "+") added.push({ no: newNo++, text, kind: "add" });
        else if (mark === "\\")
          continue; // "\ No newline at end of file": not a line of either file
        else {
          pair();
          rows.push({ type: "line", left: { no: oldNo++, text, kind: "ctx" }, right: { no: newNo++, text, kind: "ctx" } });
        }
      }
      pair();
    }
  }
  return rows;
}
