/**
 * The terminal's line discipline, kept free of xterm so it can be tested on its own: keys in,
 * screen writes and submitted lines out. Supports cursor movement, word and line kills, and history.
 */

export type EditorEffect =
  | { kind: "write"; text: string }
  | { kind: "submit"; line: string }
  | { kind: "interrupt" }
  | { kind: "clear-screen" };

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
};

export class LineEditor {
  private buffer = "";
  private cursor = 0;
  private readonly history: string[] = [];
  /** Position in history while browsing it; history.length means the line being typed. */
  private browsing = 0;
  private draft = "";
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
    return this.redraw();
  }

  feed(data: string): EditorEffect[] {
    const effects: EditorEffect[] = [];
    let i = 0;
    while (i < data.length) {
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
      case "up":
        return this.browse(-1);
      case "down":
        return this.browse(1);
      default:
        return [];
    }
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

  /**
   * Rewrites the prompt and the input, over as many rows as they wrap to, and puts the cursor back
   * where it belongs: up to the prompt's first row, clear to the end of the screen, write, then move
   * from the end of the input to the cursor.
   */
  private redraw(): EditorEffect[] {
    const columns = Math.max(1, this.columns);
    const promptWidth = visibleWidth(this.prompt);
    const end = promptWidth + this.buffer.length;
    const target = promptWidth + this.cursor;
    let text = this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : "";
    text += `\r\x1b[J${this.prompt}${this.buffer}`;
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

/** Columns a prompt takes on screen: its text without escape sequences. */
function visibleWidth(text: string): number {
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "").length;
}
