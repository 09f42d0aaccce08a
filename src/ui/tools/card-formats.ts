/**
 * Tool outputs in the shape a person reads them, where the model's shape gets in the way: the read
 * tool's `<file>` wrapper and `00001| ` line prefixes, the todo tools' JSON list and their "N todos"
 * title, a diff's `Index:` and `=====` header lines. Only the card changes; the record (what the model
 * read, OpenCode's formats) is untouched, and anything that does not have the expected shape is shown
 * as it is.
 */

interface ReadView {
  /** The file's lines as they are in the file. */
  lines: string[];
  /** The number of the first line shown (an offset read starts later). */
  firstLine: number;
  /** What the tool said after the lines ("(End of file - total 12 lines)", "(File has more lines…)"). */
  notes: string[];
}

const WRAPPED = /^<file>\n([\s\S]*)\n<\/file>$/;
const NUMBERED = /^(\d{5,})\| (.*)$/;

/** The read tool's output as the file's own lines, or undefined when it is not a numbered file listing. */
export function readView(output: string): ReadView | undefined {
  const inner = WRAPPED.exec(output)?.[1];
  if (inner === undefined) return undefined;
  const rows = inner.split("\n");
  const lines: string[] = [];
  let firstLine: number | undefined;
  let index = 0;
  for (; index < rows.length; index++) {
    const numbered = NUMBERED.exec(rows[index]!);
    if (!numbered) break;
    firstLine ??= Number(numbered[1]);
    lines.push(numbered[2]!);
  }
  const notes = rows
    .slice(index)
    .map((row) => row.trim())
    .filter((row) => row !== "");
  // An empty file, or some other text in the wrapper: the tool's words say it best.
  if (lines.length === 0) return { lines: [], firstLine: 1, notes };
  return { lines, firstLine: firstLine ?? 1, notes };
}

interface TodoItem {
  content: string;
  status: string;
  priority?: string;
}

function isTodo(value: unknown): value is TodoItem {
  if (typeof value !== "object" || value === null) return false;
  const { content, status } = value as Record<string, unknown>;
  return typeof content === "string" && typeof status === "string";
}

/** The list a todo call wrote or read: its metadata's `todos`, else its input's; undefined when neither is a list of todos. */
export function todoItems(tool: string, input: unknown, metadata: Record<string, unknown>): TodoItem[] | undefined {
  if (tool !== "todowrite" && tool !== "todoread") return undefined;
  const candidates = [metadata.todos, (input as { todos?: unknown } | null)?.todos];
  for (const candidate of candidates) if (Array.isArray(candidate) && candidate.every(isTodo)) return candidate;
  return undefined;
}

/** "2 of 5 open", "all 3 done", "empty": a title that agrees with the list shown under it. */
export function todoTitle(items: readonly TodoItem[]): string {
  if (items.length === 0) return "empty list";
  const open = items.filter((item) => item.status !== "completed" && item.status !== "cancelled").length;
  if (open === 0) return `all ${items.length} done`;
  return `${open} of ${items.length} open`;
}

/**
 * A unified diff without the lines only a patch tool needs: `Index: name` and the `=====` rule under it
 * (the `---`/`+++` lines that follow name the file).
 */
export function diffForPeople(diff: string): string {
  // Inside a hunk every line starts with " ", "+", "-" or "\\", so these two can only be headers.
  return diff
    .split("\n")
    .filter((line) => !/^Index: /.test(line) && !/^={10,}$/.test(line))
    .join("\n");
}
