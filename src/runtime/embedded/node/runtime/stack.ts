/**
 * Stack lines as Node prints them, pointing at the program's own source. Modules run as code given to
 * the sandbox's `eval` inside a wrapper function, and ES modules and TypeScript are rewritten first
 * (sucrase, which keeps every line where it was but moves columns), so V8's own lines would name
 * functions `eval` and give columns of the rewritten text. A column is carried back by aligning the
 * rewritten line's tokens with the written line's (the diff package), done only when a stack line in
 * that file is printed. Sucrase's own source maps were tried first: a template literal earlier in a file
 * throws their columns off (a call at column 12 came back as 57, past the end of its line).
 */
import { diffArrays } from "diff";

interface CompiledFile {
  /** Characters the wrapper adds before the file's first line. */
  prefix: number;
  /** How Node names the file in a stack line: its path, or its file URL for an ES module. */
  shown: string;
  /** The text as written and as run, when they differ (a rewritten file). */
  written?: string;
  run?: string;
  lines?: { written: string[]; run: string[] };
}

const compiled = new Map<string, CompiledFile>();

export function registerCompiled(filename: string, file: CompiledFile): void {
  compiled.set(filename, file);
}

interface Token {
  text: string;
  start: number;
}

/** Words (names, numbers) whole, and every other non-space character on its own. */
function tokens(line: string): Token[] {
  return [...line.matchAll(/[\p{L}_$][\p{L}\p{N}_$]*|\p{N}[\p{L}\p{N}_.]*|\S/gu)].map((match) => ({ text: match[0], start: match.index }));
}

/** The written line's column (0-based) for a column of the rewritten line, or undefined if none aligns. */
function alignColumn(runLine: string, writtenLine: string, column: number): number | undefined {
  const ran = tokens(runLine);
  const written = tokens(writtenLine);
  // The token the column falls in, or the first one after it.
  const at = ran.findIndex((token) => token.start + token.text.length > column);
  if (at < 0) return undefined;
  const counterpart = new Map<number, number>();
  let r = 0;
  let w = 0;
  for (const part of diffArrays(
    ran.map((token) => token.text),
    written.map((token) => token.text),
  )) {
    const count = part.count ?? part.value.length;
    if (part.added) w += count;
    else if (part.removed) r += count;
    else {
      for (let i = 0; i < count; i++) counterpart.set(r + i, w + i);
      r += count;
      w += count;
    }
  }
  // A token only the rewrite has (an import's new name) stands for the next one both have.
  for (let i = at; i < ran.length; i++) {
    const match = counterpart.get(i);
    if (match === undefined) continue;
    // The rewrite calls an imported function as `(0, _m.name)(...)` or `_m.name.call(void 0, ...)`, where V8
    // places the call at its parenthesis; as written it is `name(...)`, placed at the name.
    const previous = written[match - 1];
    if (written[match]!.text === "(" && previous && /^[\p{L}_$]/u.test(previous.text)) return previous.start;
    return written[match]!.start + (i === at ? Math.max(0, column - ran[at]!.start) : 0);
  }
  return undefined;
}

function original(file: CompiledFile, line: number, column: number): { line: number; column: number } {
  // V8's columns are 1-based; the wrapper's text sits before the first line.
  const runColumn = line === 1 ? column - file.prefix : column;
  if (file.written === undefined || file.run === undefined) return { line, column: Math.max(1, runColumn) };
  // Split once per file, on the first stack line that needs it.
  file.lines ??= { written: file.written.split("\n"), run: file.run.split("\n") };
  const writtenLine = file.lines.written[line - 1];
  const runLine = file.lines.run[line - 1];
  if (writtenLine === undefined || runLine === undefined) return { line, column: Math.max(1, runColumn) };
  const aligned = alignColumn(runLine, writtenLine, runColumn - 1);
  return { line, column: aligned === undefined ? Math.min(Math.max(1, runColumn), writtenLine.length + 1) : aligned + 1 };
}

/** One frame as Node prints it (V8's own text, with the file's name, the source position and no `eval`). */
function frameText(frame: NodeJS.CallSite): string {
  const text = frame.toString();
  const origin = frame.isEval() ? frame.getEvalOrigin() : frame.getFileName();
  const file = origin ? compiled.get(origin) : undefined;
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  if (!file || !origin || line === null || column === null) return text;
  const at = original(file, line, column);
  const location = `${file.shown}:${at.line}:${at.column}`;
  const before = text.slice(0, Math.max(0, text.lastIndexOf(`${origin}:${line}:${column}`)));
  let name = before.endsWith("(") ? before.slice(0, -1).trimEnd() : "";
  // Code run by eval names its anonymous functions `eval`; Node's are `<anonymous>`, and a function with
  // no `this` type (an ES module's top level) has no name at all.
  if (frame.isEval() && frame.getFunctionName() === "eval") {
    const type = frame.getTypeName();
    const asyncPrefix = name.startsWith("async ") ? "async " : "";
    name = frame.isConstructor() ? "new <anonymous>" : type && !frame.isToplevel() ? `${asyncPrefix}${type}.<anonymous>` : "";
  }
  return name ? `${name} (${location})` : location;
}

function header(error: unknown): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return "Error";
  }
}

/** Makes every stack in the sandbox read as Node's (V8's hook: error.stack, captureStackTrace, console.trace). */
export function installStackFormat(): void {
  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => {
    const lines = frames.map((frame) => {
      try {
        return `\n    at ${frameText(frame)}`;
      } catch {
        return `\n    at ${String(frame)}`;
      }
    });
    return `${header(error)}${lines.join("")}`;
  };
}
