/**
 * The terminal's line discipline, kept free of xterm so it can be tested on its own: keys in,
 * screen writes and submitted lines out. Supports cursor movement, word and line kills, history,
 * Tab completion (the candidates come from outside: `complete` asks, `completed` answers) and reverse
 * history search (Ctrl+R).
 */
import { commonStart } from "../../workspace/shell-completion.js";

export type EditorEffect =
  | { kind: "write"; text: string }
  | { kind: "submit"; line: string }
  | { kind: "interrupt" }
  | { kind: "clear-screen" }
  /** Tab was pressed: find candidates for the word before the cursor and hand them to `completed`. */
  | { kind: "complete"; before: string; repeat: boolean };

const ESCAPES: Record<string, string> = {
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "right",
  "\x1b[D": "left",
  "\x1b[H": "home",
  "\x1b[F": "end",
  "\x1bOH": "home",
  "\x1bOF": "end",
  "\x1b[1~": "home",
  "\x1b[4~": "end",
  "\x1b[3~": "delete",
  "\x1b[1;5C": "word-right",
  "\x1b[1;5D": "word-left",
  "\x1bf": "word-right",
  "\x1bb": "word-left",
};

const CONTROL: Record<string, string> = {
  "\r": "enter",
  "\n": "enter",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x01": "home",
  "\x05": "end",
  "\x02": "left",
  "\x06": "right",
  "\x03": "interrupt",
  "\x15": "kill-before",
  "\x0b": "kill-after",
  "\x17": "kill-word",
  "\x0c": "clear-screen",
  "\x10": "up",
  "\x0e": "down",
  "\x04": "delete",
  "\t": "complete",
  "\x12": "reverse-search",
};

/** Ctrl+R's state: what is searched for, and which history entry matches it now (-1: none). */
interface Search {
  query: string;
  match: number;
  /** The line as it was before the search, for Escape or Ctrl+G. */
  original: string;
}

export class LineEditor {
  private buffer = "";
  private cursor = 0;
  private readonly history: string[] = [];
  /** Position in history while browsing it; history.length means the line being typed. */
  private browsing = 0;
  private draft = "";
  /** Tabs pressed in a row: the second in a row lists the candidates. */
  private tabs = 0;
  private search: Search | undefined;
  prompt = "$ ";

  constructor(private readonly maxHistory = 500) {}

  get line(): string {
    return this.buffer;
  }

  /** The terminal's width; a line longer than it wraps, and redraws must cover every row. */
  columns = 80;
  /** The row, counted from the prompt's first, where the cursor was left by the last draw. */
  private cursorRow = 0;

  /** The prompt and the empty line, as when a command has finished. The cursor is at a line's start. */
  start(prompt: string): EditorEffect[] {
    this.prompt = prompt;
    this.buffer = "";
    this.cursor = 0;
    this.cursorRow = 0;
    this.browsing = this.history.length;
    this.search = undefined;
    this.tabs = 0;
    return this.redraw();
  }

  /** Whether Ctrl+R's search is showing. */
  get searching(): boolean {
    return this.search !== undefined;
  }

  feed(data: string): EditorEffect[] {
    const effects: EditorEffect[] = [];
    let i = 0;
    while (i < data.length) {
      if (data[i] !== "\t") this.tabs = 0;
      if (this.search) {
        i += this.feedSearch(data, i, effects);
        continue;
      }
      const escape = data[i] === "\x1b" ? Object.keys(ESCAPES).find((seq) => data.startsWith(seq, i)) : undefined;
      if (escape) {
        effects.push(...this.act(ESCAPES[escape]!));
        i += escape.length;
        continue;
      }
      const ch = data[i]!;
      if (data[i] === "\x1b") {
        // An escape we do not handle: skip the whole sequence rather than typing its letters.
        const match = /^\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?/.exec(data.slice(i));
        i += match ? match[0].length : 1;
        continue;
      }
      const action = CONTROL[ch];
      if (action) {
        effects.push(...this.act(action));
        // A pasted CRLF is one Enter.
        i += ch === "\r" && data[i + 1] === "\n" ? 2 : 1;
        continue;
      }
      if (ch < " ") {
        i += 1;
        continue;
      }
      let end = i;
      while (end < data.length && data[end]! >= " " && data[end] !== "\x7f") end++;
      effects.push(...this.insert(data.slice(i, end)));
      i = end;
    }
    return effects;
  }

  private insert(text: string): EditorEffect[] {
    this.buffer = this.buffer.slice(0, this.cursor) + text + this.buffer.slice(this.cursor);
    this.cursor += text.length;
    return this.redraw();
  }

  private act(action: string): EditorEffect[] {
    switch (action) {
      case "enter": {
        const line = this.buffer;
        if (line.trim() !== "" && this.history[this.history.length - 1] !== line) {
          this.history.push(line);
          if (this.history.length > this.maxHistory) this.history.shift();
        }
        // Leave the cursor after the whole input (it may wrap over several rows), then a new line.
        this.cursor = this.buffer.length;
        const toEnd = this.redraw();
        this.buffer = "";
        this.cursor = 0;
        this.cursorRow = 0;
        this.browsing = this.history.length;
        return [...toEnd, { kind: "write", text: "\r\n" }, { kind: "submit", line }];
      }
      case "interrupt":
        this.buffer = "";
        this.cursor = 0;
        this.browsing = this.history.length;
        return [{ kind: "interrupt" }];
      case "clear-screen":
        return [{ kind: "clear-screen" }, ...this.redraw()];
      case "backspace":
        if (this.cursor === 0) return [];
        this.buffer = this.buffer.slice(0, this.cursor - 1) + this.buffer.slice(this.cursor);
        this.cursor--;
        return this.redraw();
      case "delete":
        if (this.cursor >= this.buffer.length) return [];
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(this.cursor + 1);
        return this.redraw();
      case "left":
        this.cursor = Math.max(0, this.cursor - 1);
        return this.redraw();
      case "right":
        this.cursor = Math.min(this.buffer.length, this.cursor + 1);
        return this.redraw();
      case "home":
        this.cursor = 0;
        return this.redraw();
      case "end":
        this.cursor = this.buffer.length;
        return this.redraw();
      case "word-left":
        this.cursor = this.wordStart();
        return this.redraw();
      case "word-right": {
        const rest = this.buffer.slice(this.cursor);
        const match = /^\s*\S+/.exec(rest);
        this.cursor += match ? match[0].length : rest.length;
        return this.redraw();
      }
      case "kill-before":
        this.buffer = this.buffer.slice(this.cursor);
        this.cursor = 0;
        return this.redraw();
      case "kill-after":
        this.buffer = this.buffer.slice(0, this.cursor);
        return this.redraw();
      case "kill-word": {
        const start = this.wordStart();
        this.buffer = this.buffer.slice(0, start) + this.buffer.slice(this.cursor);
        this.cursor = start;
        return this.redraw();
      }
      case "complete":
        this.tabs++;
        return [{ kind: "complete", before: this.buffer.slice(0, this.cursor), repeat: this.tabs > 1 }];
      case "reverse-search":
        this.search = { query: "", match: -1, original: this.buffer };
        return this.redraw();
      case "up":
        return this.browse(-1);
      case "down":
        return this.browse(1);
      default:
        return [];
    }
  }

  /**
   * The candidates for a `complete` effect. Ignored when the line changed meanwhile. One candidate
   * replaces the word (a folder keeps the cursor after its "/", anything else gets a space); several
   * extend it to what they share, or, on the second Tab in a row, are listed under the line.
   */
  completed(request: { before: string; repeat: boolean }, result: { word: string; candidates: readonly string[] }): EditorEffect[] {
    if (this.search || this.buffer.slice(0, this.cursor) !== request.before || !request.before.endsWith(result.word)) return [];
    const { word, candidates } = result;
    if (candidates.length === 0) return [{ kind: "write", text: "\x07" }];
    if (candidates.length === 1) {
      const only = candidates[0]!;
      return this.replaceWord(word, only.endsWith("/") ? only : `${only} `);
    }
    const shared = commonStart(candidates);
    if (shared.length > word.length) return this.replaceWord(word, shared);
    if (!request.repeat) return [{ kind: "write", text: "\x07" }];
    // The listing goes below the line; the prompt and the line are drawn again under it.
    const toEnd = this.moveToEnd();
    const listing = columnsOf(candidates.map(shownName), Math.max(1, this.columns));
    this.cursorRow = 0;
    return [...toEnd, { kind: "write", text: `\r\n${listing}\r\n` }, ...this.redraw()];
  }

  private replaceWord(word: string, replacement: string): EditorEffect[] {
    const start = this.cursor - word.length;
    this.buffer = this.buffer.slice(0, start) + replacement + this.buffer.slice(this.cursor);
    this.cursor = start + replacement.length;
    return this.redraw();
  }

  /** Puts the cursor after the whole input, as before writing below it. */
  private moveToEnd(): EditorEffect[] {
    const cursor = this.cursor;
    this.cursor = this.buffer.length;
    const effects = this.redraw();
    this.cursor = cursor;
    return effects;
  }

  /** One key (or escape sequence) while Ctrl+R's search shows; returns how many characters it took. */
  private feedSearch(data: string, i: number, effects: EditorEffect[]): number {
    const search = this.search!;
    const ch = data[i]!;
    if (ch === "\x12") {
      // Ctrl+R again: the next older match.
      const older = this.findMatch(search.query, search.match === -1 ? this.history.length - 1 : search.match - 1);
      if (older !== -1) search.match = older;
      effects.push(...(older === -1 ? [{ kind: "write" as const, text: "\x07" }] : []), ...this.redraw());
      return 1;
    }
    if (ch === "\x07" || (ch === "\x1b" && (i + 1 >= data.length || data[i + 1] === "\x1b"))) {
      // Ctrl+G or a lone Escape: back to the line as it was.
      this.buffer = search.original;
      this.cursor = this.buffer.length;
      this.search = undefined;
      effects.push(...this.redraw());
      return 1;
    }
    if (ch === "\x7f" || ch === "\b") {
      search.query = search.query.slice(0, -1);
      search.match = search.query === "" ? -1 : this.findMatch(search.query, this.history.length - 1);
      effects.push(...this.redraw());
      return 1;
    }
    if (ch >= " ") {
      let end = i;
      while (end < data.length && data[end]! >= " " && data[end] !== "\x7f") end++;
      search.query += data.slice(i, end);
      const from = search.match === -1 ? this.history.length - 1 : search.match;
      const found = this.findMatch(search.query, from);
      if (found !== -1) search.match = found;
      effects.push(...(found === -1 ? [{ kind: "write" as const, text: "\x07" }] : []), ...this.redraw());
      return end - i;
    }
    // Any other key ends the search with the match on the line, then acts as usual (Enter runs it).
    this.buffer = search.match === -1 ? search.original : this.history[search.match]!;
    this.cursor = this.buffer.length;
    this.search = undefined;
    this.browsing = this.history.length;
    if (ch === "\x03") {
      effects.push(...this.act("interrupt"));
      return 1;
    }
    effects.push(...this.redraw());
    return 0;
  }

  /** The newest history entry at or before `from` that contains `query`; -1 when none does. */
  private findMatch(query: string, from: number): number {
    for (let index = Math.min(from, this.history.length - 1); index >= 0; index--) {
      if (this.history[index]!.includes(query)) return index;
    }
    return -1;
  }

  private wordStart(): number {
    const before = this.buffer.slice(0, this.cursor);
    const match = /\S+\s*$/.exec(before);
    return match ? before.length - match[0].length : 0;
  }

  private browse(step: number): EditorEffect[] {
    const next = this.browsing + step;
    if (next < 0 || next > this.history.length) return [];
    if (this.browsing === this.history.length) this.draft = this.buffer;
    this.browsing = next;
    this.buffer = next === this.history.length ? this.draft : this.history[next]!;
    this.cursor = this.buffer.length;
    return this.redraw();
  }

  /** What the screen shows: the prompt and the line, or Ctrl+R's search and its match. */
  private shown(): { prompt: string; line: string; cursor: number } {
    if (!this.search) return { prompt: this.prompt, line: this.buffer, cursor: this.cursor };
    const { query, match } = this.search;
    const line = match === -1 ? "" : this.history[match]!;
    const at = match === -1 ? 0 : line.indexOf(query);
    const prompt = `(${match === -1 && query !== "" ? "failed " : ""}reverse-i-search)\`${query}': `;
    return { prompt, line, cursor: Math.max(0, at) };
  }

  /**
   * Rewrites the prompt and the input, over as many rows as they wrap to, and puts the cursor back
   * where it belongs: up to the prompt's first row, clear to the end of the screen, write, then move
   * from the end of the input to the cursor.
   */
  private redraw(): EditorEffect[] {
    const columns = Math.max(1, this.columns);
    const shown = this.shown();
    const promptWidth = visibleWidth(shown.prompt);
    const end = promptWidth + shown.line.length;
    const target = promptWidth + shown.cursor;
    let text = this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : "";
    text += `\r\x1b[J${shown.prompt}${shown.line}`;
    // At an exact multiple of the width the terminal waits to wrap; make it wrap so rows add up.
    if (end > 0 && end % columns === 0) text += "\r\n";
    const endRow = Math.floor(end / columns);
    const targetRow = Math.floor(target / columns);
    const targetColumn = target % columns;
    if (endRow > targetRow) text += `\x1b[${endRow - targetRow}A`;
    text += "\r";
    if (targetColumn > 0) text += `\x1b[${targetColumn}C`;
    this.cursorRow = targetRow;
    return [{ kind: "write", text }];
  }
}

/** A candidate as a listing shows it: its last name (a folder with its "/"), without escapes. */
function shownName(candidate: string): string {
  const bare = candidate.endsWith("/") ? candidate.slice(0, -1) : candidate;
  const name = bare.slice(bare.lastIndexOf("/") + 1) + (candidate.endsWith("/") ? "/" : "");
  return name.replace(/\\(.)/g, "$1");
}

/** Names in columns across the width, row by row, as bash lists completions. */
function columnsOf(names: readonly string[], width: number): string {
  const cell = Math.max(...names.map((name) => name.length)) + 2;
  const perRow = Math.max(1, Math.floor(width / cell));
  const rows: string[] = [];
  for (let at = 0; at < names.length; at += perRow) {
    rows.push(
      names
        .slice(at, at + perRow)
        .map((name, index, row) => (index === row.length - 1 ? name : name.padEnd(cell)))
        .join(""),
    );
  }
  return rows.join("\r\n");
}

/** Columns a prompt takes on screen: its text without escape sequences. */
function visibleWidth(text: string): number {
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "").length;
}
