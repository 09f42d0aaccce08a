/** The terminal's line discipline: what a person types becomes the line they meant. */
import { describe, expect, it } from "vitest";
import { LineEditor, type EditorEffect } from "../../src/ui/terminal/line-editor.js";

const submitted = (effects: EditorEffect[]) => effects.filter((e) => e.kind === "submit").map((e) => (e as { line: string }).line);

function typed(keys: string[]): { editor: LineEditor; lines: string[] } {
  const editor = new LineEditor();
  editor.start("$ ");
  const lines = keys.flatMap((key) => submitted(editor.feed(key)));
  return { editor, lines };
}

describe("line editor", () => {
  it("submits what was typed on Enter, CR or a pasted CRLF alike", () => {
    expect(typed(["echo hi", "\r"]).lines).toEqual(["echo hi"]);
    expect(typed(["a\r\nb\n"]).lines).toEqual(["a", "b"]);
  });

  it("edits in the middle: left, home, end, backspace, delete", () => {
    expect(typed(["cho", "\x1b[H", "e", "\x1b[F", " x", "\x7f", "y", "\r"]).lines).toEqual(["echo y"]);
    expect(typed(["abXc", "\x1b[D", "\x1b[D", "\x1b[3~", "\r"]).lines).toEqual(["abc"]);
    expect(typed(["abc", "\x01", "\x04", "\x05", "d", "\r"]).lines).toEqual(["bcd"]);
  });

  it("kills a word, the line before the cursor and the rest after it", () => {
    expect(typed(["git commit -m", "\x17", "\r"]).lines).toEqual(["git commit "]);
    expect(typed(["junk", "\x15", "ls", "\r"]).lines).toEqual(["ls"]);
    expect(typed(["keep drop", "\x1b[1;5D", "\x0b", "\r"]).lines).toEqual(["keep "]);
  });

  it("walks history with up and down, keeping the line being typed", () => {
    const { editor } = typed(["one\r", "two\r", "two\r"]);
    const effects = [...editor.feed("draft"), ...editor.feed("\x1b[A")];
    expect(editor.line).toBe("two");
    editor.feed("\x1b[A");
    expect(editor.line).toBe("one"); // the repeated "two" is stored once
    editor.feed("\x1b[A");
    expect(editor.line).toBe("one");
    editor.feed("\x1b[B\x1b[B");
    expect(editor.line).toBe("draft");
    expect(effects.length).toBeGreaterThan(0);
  });

  it("leaves blank lines out of history", () => {
    const { editor } = typed(["ls\r", "   \r"]);
    editor.feed("\x1b[A");
    expect(editor.line).toBe("ls");
  });

  it("turns Ctrl-C into an interrupt and clears the line", () => {
    const editor = new LineEditor();
    editor.start("$ ");
    const effects = editor.feed("half typed\x03");
    expect(effects.some((e) => e.kind === "interrupt")).toBe(true);
    expect(editor.line).toBe("");
  });

  it("ignores escape sequences it does not know instead of typing them", () => {
    expect(typed(["a", "\x1b[15~", "\x1b[200~", "b", "\r"]).lines).toEqual(["ab"]);
  });

  it("redraws the prompt line with the cursor where the edit is", () => {
    const editor = new LineEditor();
    editor.start("> ");
    editor.feed("abc");
    const [effect] = editor.feed("\x1b[D");
    expect(effect).toEqual({ kind: "write", text: "\r\x1b[J> abc\r\x1b[4C" });
  });

  it("redraws a line that wraps from its first row, not just the last one", () => {
    const editor = new LineEditor();
    editor.columns = 10;
    editor.start("\x1b[32m$\x1b[0m "); // two columns wide on screen
    editor.feed("0123456789abcd"); // 16 columns: two rows, cursor on the second
    const [effect] = editor.feed("e");
    // Up one row to the prompt, clear, rewrite, cursor after "e" at row 1, column 7.
    expect(effect).toEqual({ kind: "write", text: "\x1b[1A\r\x1b[J\x1b[32m$\x1b[0m 0123456789abcde\r\x1b[7C" });
    const [home] = editor.feed("\x01");
    expect(home).toEqual({ kind: "write", text: "\x1b[1A\r\x1b[J\x1b[32m$\x1b[0m 0123456789abcde\x1b[1A\r\x1b[2C" });
  });

  it("wraps explicitly when the input ends exactly at the edge", () => {
    const editor = new LineEditor();
    editor.columns = 10;
    editor.start("$ ");
    const [effect] = editor.feed("01234567");
    expect(effect).toEqual({ kind: "write", text: "\r\x1b[J$ 01234567\r\n\r" });
  });
});
