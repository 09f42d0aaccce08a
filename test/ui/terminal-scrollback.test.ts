import { describe, expect, it } from "vitest";
import { KEPT_LINES, restoredScreen, scrollbackText, type ScrollbackTerminal } from "../../src/ui/terminal-scrollback.js";

/** xterm's buffer as the saver reads it: rows, some wrapped onto the row before, and the cursor's row. */
function screen(rows: [string, boolean?][], cursorRow: number): ScrollbackTerminal {
  return {
    buffer: {
      active: {
        length: rows.length,
        baseY: 0,
        cursorY: cursorRow,
        getLine: (y) => (rows[y] ? { isWrapped: rows[y]![1] ?? false, translateToString: () => rows[y]![0] } : undefined),
      },
    },
    write: () => undefined,
    onWriteParsed: () => ({ dispose: () => undefined }),
  };
}

describe("contract: the terminal's scrollback across a reload", () => {
  it("keeps every line above the prompt being typed, wrapped rows joined into their line", () => {
    const term = screen([["$ echo hello"], ["hello"], ["$ cat long.txt"], ["aaaa"], ["bbbb", true], [""], ["$ ls"]], 6);
    expect(scrollbackText(term)).toBe("$ echo hello\nhello\n$ cat long.txt\naaaabbbb");
  });

  it("keeps the most recent lines only", () => {
    const rows: [string][] = Array.from({ length: KEPT_LINES + 50 }, (_, i) => [`line ${i}`]);
    const kept = scrollbackText(screen([...rows, ["$ "]], rows.length)).split("\n");
    expect(kept).toHaveLength(KEPT_LINES);
    expect(kept[0]).toBe("line 50");
    expect(kept.at(-1)).toBe(`line ${KEPT_LINES + 49}`);
  });

  it("comes back dimmed and marked, with no escape from the saved text replayed", () => {
    expect(restoredScreen("")).toBe("");
    const shown = restoredScreen("one\n\x1b]0;title\x07two");
    expect(shown).toBe("\x1b[2mone\r\n]0;titletwo\x1b[0m\r\n\x1b[2m── restored after the reload ──\x1b[0m\r\n");
  });
});
