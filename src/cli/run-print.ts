/**
 * How `workbench run` shows its events. The default format is for people: the assistant's text on stdout
 * (each text part once it is complete), one line per finished tool call on stderr, and a failed step's
 * error with its hint on stderr, so `workbench run ... > answer.txt` keeps only the answer.
 * `--format json` is for programs: every event as one JSON line on stdout.
 * Everything shown for people passes through `terminalSafe`: a model or a tool must not be able to
 * drive the user's terminal with escape sequences.
 */
import type { CliIO } from "./cli-session.js";
import type { RunEvent } from "./run-events.js";
import { jsonLine, terminalSafe } from "./terminal-text.js";

export type RunFormat = "default" | "json";

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

// What a call is about when it failed before it could give itself a title.
const SUBJECT_KEYS = ["filePath", "path", "pattern", "command", "url", "description"];

function subjectOf(input: Record<string, unknown>, root: string): string {
  for (const key of SUBJECT_KEYS) {
    const value = input[key];
    if (typeof value !== "string" || value === "") continue;
    return value.startsWith(`${root}/`) ? value.slice(root.length + 1) : firstLine(value);
  }
  return "";
}

/**
 * A command as the person should read it: what runs, never the model's own description of it (a call
 * described as "Lists files" may run `rm -rf ~`), with the count of the lines after the first.
 */
function commandText(command: string): string {
  const lines = terminalSafe(command).trim().split("\n");
  const more = lines.length - 1;
  return more > 0 ? `${lines[0]} [+${more} more line${more === 1 ? "" : "s"}]` : (lines[0] ?? "");
}

/** `| read  src/a.ts`, `| bash  npm test`, or `| edit  src/a.ts  error: ...` for a call that failed. */
export function toolLine(event: Extract<RunEvent, { type: "tool_use" }>, root: string): string {
  const call = event.part.state;
  const command = call.input.command;
  const title =
    typeof command === "string" && command.trim() !== ""
      ? commandText(command)
      : firstLine(terminalSafe(call.title || subjectOf(call.input, root)));
  const tool = terminalSafe(call.tool);
  const head = title ? `| ${tool}  ${title}` : `| ${tool}`;
  if (call.status === "completed") return head;
  const why = call.status === "interrupted" ? "interrupted" : firstLine(terminalSafe(call.error ?? "failed"));
  return `${head}  error: ${why}`;
}

export function errorText(error: { message: string; hint?: string }): string {
  const message = terminalSafe(error.message);
  return error.hint ? `error: ${message}\n${terminalSafe(error.hint)}\n` : `error: ${message}\n`;
}

/** `root`: the workspace folder, which tool lines leave out of paths. */
export function printer(format: RunFormat, io: CliIO, root: string): (event: RunEvent) => void {
  if (format === "json") return (event) => io.out(jsonLine(event));
  return (event) => {
    switch (event.type) {
      case "text": {
        const text = event.part.type === "text" ? terminalSafe(event.part.text).trim() : "";
        if (text) io.out(`${text}\n`);
        return;
      }
      case "tool_use":
        io.err(`${toolLine(event, root)}\n`);
        return;
      case "error":
        io.err(errorText(event.error));
        return;
      default:
        return;
    }
  };
}
