/** Issue 17, item 10: Tab completion and Ctrl+R reverse search in the terminal's line editor. */
import { describe, expect, it } from "vitest";
import { LineEditor, type EditorEffect } from "../../src/ui/terminal/line-editor.js";

const written = (effects: EditorEffect[]) =>
  effects
    .filter((e) => e.kind === "write")
    .map((e) => (e as { text: string }).text)
    .join("");
const submitted = (effects: EditorEffect[]) => effects.filter((e) => e.kind === "submit").map((e) => (e as { line: string }).line);
const completeRequest = (effects: EditorEffect[]) =>
  effects.find((e) => e.kind === "complete") as Extract<EditorEffect, { kind: "complete" }>;

function editorWith(text: string): LineEditor {
  const editor = new LineEditor();
  editor.start("$ ");
  editor.feed(text);
  return editor;
}

describe("Tab completion", () => {
  it("asks for the line up to the cursor, and a single candidate completes the word with a space", () => {
    const editor = editorWith("gre");
    const request = completeRequest(editor.feed("\t"));
    expect(request).toEqual({ kind: "complete", before: "gre", repeat: false });
    editor.completed(request, { word: "gre", candidates: ["grep"] });
    expect(editor.line).toBe("grep ");
  });

  it("a folder completes with its slash and no space, in the middle of a line too", () => {
    const editor = editorWith("cat sr -n");
    editor.feed("\x1b[D\x1b[D\x1b[D");
    const request = completeRequest(editor.feed("\t"));
    expect(request.before).toBe("cat sr");
    editor.completed(request, { word: "sr", candidates: ["src/"] });
    expect(editor.line).toBe("cat src/ -n");
  });

  it("several candidates extend the word to what they share; a second Tab lists them", () => {
    const editor = editorWith("ls src/ma");
    const first = completeRequest(editor.feed("\t"));
    editor.completed(first, { word: "src/ma", candidates: ["src/main.ts", "src/main.tsx"] });
    expect(editor.line).toBe("ls src/main.ts");
    // As in bash, the Tab right after lists them (the first one could only extend the word).
    const twice = completeRequest(editor.feed("\t"));
    expect(twice.repeat).toBe(true);
    const listing = written(editor.completed(twice, { word: "src/main.ts", candidates: ["src/main.ts", "src/main.tsx"] }));
    expect(listing).toMatch(/\r\nmain\.ts +main\.tsx\r\n/);
    expect(editor.line).toBe("ls src/main.ts");
  });

  it("a first Tab that cannot extend rings the bell; any other key between two Tabs starts over", () => {
    const ambiguous = editorWith("ls a");
    const first = completeRequest(ambiguous.feed("\t"));
    expect(first.repeat).toBe(false);
    expect(written(ambiguous.completed(first, { word: "a", candidates: ["ab", "ac"] }))).toBe("\x07");
    const editor = editorWith("x");
    expect(completeRequest(editor.feed("\t")).repeat).toBe(false);
    editor.feed("y");
    expect(completeRequest(editor.feed("\t")).repeat).toBe(false);
    expect(written(editor.completed({ before: "xy", repeat: false }, { word: "xy", candidates: [] }))).toBe("\x07");
  });

  it("ignores candidates that arrive after the line changed", () => {
    const editor = editorWith("gre");
    const request = completeRequest(editor.feed("\t"));
    editor.feed("p");
    expect(editor.completed(request, { word: "gre", candidates: ["grep"] })).toEqual([]);
    expect(editor.line).toBe("grep");
  });
});

describe("Ctrl+R reverse search", () => {
  function withHistory(lines: string[]): LineEditor {
    const editor = new LineEditor();
    editor.start("$ ");
    for (const line of lines) editor.feed(`${line}\r`);
    editor.start("$ ");
    return editor;
  }

  it("finds the newest line containing what is typed, shows it, and Enter runs it", () => {
    const editor = withHistory(["git status", "npm test", "git log --oneline"]);
    expect(written(editor.feed("\x12"))).toContain("(reverse-i-search)`': ");
    expect(editor.searching).toBe(true);
    expect(written(editor.feed("git"))).toContain("(reverse-i-search)`git': git log --oneline");
    expect(submitted(editor.feed("\r"))).toEqual(["git log --oneline"]);
    expect(editor.searching).toBe(false);
  });

  it("Ctrl+R again steps to older matches; an arrow key leaves the match on the line to edit", () => {
    const editor = withHistory(["git status", "npm test", "git log --oneline"]);
    editor.feed("\x12git");
    expect(written(editor.feed("\x12"))).toContain("`git': git status");
    editor.feed("\x1b[F");
    expect(editor.searching).toBe(false);
    expect(editor.line).toBe("git status");
    editor.feed(" -s");
    expect(submitted(editor.feed("\r"))).toEqual(["git status -s"]);
  });

  it("says when nothing matches, and Escape brings back the line as it was", () => {
    const editor = withHistory(["ls"]);
    editor.feed("half typed");
    editor.feed("\x12");
    expect(written(editor.feed("zzz"))).toContain("(failed reverse-i-search)`zzz': ");
    editor.feed("\x1b");
    expect(editor.searching).toBe(false);
    expect(editor.line).toBe("half typed");
  });

  it("Ctrl+C in a search drops it and the line", () => {
    const editor = withHistory(["ls -la"]);
    editor.feed("\x12ls");
    expect(editor.feed("\x03").some((e) => e.kind === "interrupt")).toBe(true);
    expect(editor.searching).toBe(false);
  });
});
