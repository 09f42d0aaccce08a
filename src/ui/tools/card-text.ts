/**
 * What a call card shows a person instead of the text the model gets: the bash tool's `<bash_metadata>`
 * footer as a sentence, a denial's rule JSON as rules, the glob card named by its pattern, and a failing
 * exit code in words. The record itself is untouched (it is what OpenCode has and what the model read).
 */
import { todoItems, todoTitle } from "./card-formats.js";

export interface SplitOutput {
  /** The output without the footer. */
  body: string;
  /** The footer's notes, one per line, for a person. */
  notes: string[];
}

const FOOTER = /\n*<bash_metadata>\n([\s\S]*?)\n<\/bash_metadata>\s*$/;
const TIMEOUT_NOTE = /^bash tool terminated command after exceeding timeout (\d+) ms$/;

function readable(note: string): string {
  const timeout = TIMEOUT_NOTE.exec(note);
  if (timeout) {
    const ms = Number(timeout[1]);
    const span =
      ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : ms >= 1000 ? `${(ms / 1000).toLocaleString("en")} s` : `${ms} ms`;
    return `Stopped: the command ran past its timeout of ${span}.`;
  }
  if (note === "User aborted the command") return "Stopped: you aborted the command.";
  return note;
}

/** Whether the bash tool's footer says the command was killed (its timeout, or a Stop or Abort), and by what. */
export function killedBy(output: string | undefined): "timeout" | "abort" | undefined {
  const footer = output === undefined ? undefined : FOOTER.exec(output)?.[1];
  if (footer === undefined) return undefined;
  const notes = footer.split("\n");
  if (notes.some((note) => TIMEOUT_NOTE.test(note))) return "timeout";
  if (notes.includes("User aborted the command")) return "abort";
  return undefined;
}

/** The bash tool's trailing `<bash_metadata>` block, taken off the output and put in words. */
export function splitBashMetadata(output: string): SplitOutput {
  const footer = FOOTER.exec(output);
  if (!footer) return { body: output, notes: [] };
  return {
    body: output.slice(0, footer.index),
    notes: footer[1]!
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map(readable),
  };
}

export interface QuotedRule {
  permission: string;
  pattern: string;
  action: string;
}

const DENIED = "The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules ";

/** The rules a denial quotes, when the error is a denial whose rules can be read; undefined otherwise. */
export function deniedRules(error: string | undefined): QuotedRule[] | undefined {
  if (!error?.startsWith(DENIED)) return undefined;
  try {
    const rules = JSON.parse(error.slice(DENIED.length)) as unknown;
    if (!Array.isArray(rules)) return undefined;
    const valid = rules.filter(
      (rule): rule is QuotedRule =>
        typeof rule === "object" &&
        rule !== null &&
        ["permission", "pattern", "action"].every((key) => typeof (rule as Record<string, unknown>)[key] === "string"),
    );
    return valid.length === rules.length ? valid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The card's title. A glob call is named by what it looks for (its tool title is the folder searched, as
 * OpenCode has it): the pattern, then the folder when the call named one.
 */
export function cardTitle(tool: string, title: string, input: unknown, metadata: Record<string, unknown> = {}): string {
  // OpenCode's "N todos" counts the open ones only, beside a list that shows them all.
  const todos = todoItems(tool, input, metadata);
  if (todos) return todoTitle(todos);
  const { pattern, path } = (input ?? {}) as { pattern?: unknown; path?: unknown };
  if (tool === "glob" && typeof pattern === "string" && pattern !== "") {
    // Without a path the search is the workspace's: the folder says nothing the pattern does not.
    return title && typeof path === "string" && path !== "" ? `${pattern} in ${title}` : pattern;
  }
  return title;
}

/**
 * A failing exit code for the card's head, with the usual meanings in words; undefined for success or
 * when the call has no exit code. `output` tells a shell limit's 126 from a command that cannot run.
 */
export function exitLabel(exit: unknown, output: string | undefined): string | undefined {
  if (typeof exit !== "number" || exit === 0) return undefined;
  if (exit === 126) return output?.includes("Settings > Shell limits") ? "exit 126 · shell limit reached" : "exit 126 · not executable";
  if (exit === 127) return "exit 127 · not found";
  if (exit > 128 && exit < 160) return `exit ${exit} · killed by signal ${exit - 128}`;
  return `exit ${exit}`;
}

const FUNCTION_DEFINITION = /(^|[\s;&|(){])(function\s+[\w.:-]+(\s*\(\s*\))?|[\w.:-]+\s*\(\s*\))\s*[{(]/;

/**
 * Why a running bash card may sit still: the embedded shell hands output over as each command ends, and
 * a call to a shell function is one command, so what the function prints comes when it returns. Said
 * only for a command that defines a function; undefined otherwise.
 */
export function functionOutputNote(tool: string, input: unknown): string | undefined {
  const command = (input as { command?: unknown } | null)?.command;
  if (tool !== "bash" || typeof command !== "string" || !FUNCTION_DEFINITION.test(command)) return undefined;
  return "In the embedded shell, what a shell function prints arrives when the function returns: just-bash hands output over as each command ends, and a function call is one command (loops and if blocks stream line by line).";
}
