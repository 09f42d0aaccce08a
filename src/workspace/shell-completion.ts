/**
 * Tab completion for the terminal: the first word of a command completes to a command name (the shell's
 * builtins and what is on its PATH), any other word to a path. Paths are read from the runtime's files, so
 * completing runs no command; the command names are listed once per runtime.
 */
import { join, resolve } from "pathe";
import type { Runtime } from "../runtime/types.js";

/** Builtins of the shell that have no file on PATH. */
const BUILTINS = [
  "alias",
  "break",
  "cd",
  "continue",
  "eval",
  "exec",
  "exit",
  "export",
  "local",
  "read",
  "return",
  "set",
  "shift",
  "shopt",
  "source",
  "type",
  "unalias",
  "unset",
];

export interface CompletionRequest {
  /** The line up to the cursor. */
  before: string;
  cwd: string;
}

export interface CompletionResult {
  /** The word being completed, as typed (it is replaced by a candidate or the candidates' common start). */
  word: string;
  /** Full replacements for the word, sorted; a folder ends with "/". */
  candidates: string[];
}

/** The word at the cursor (a backslash keeps a space inside it) and whether it is a command's name. */
export function wordAt(before: string): { word: string; command: boolean } {
  const match = /(?:\\.|[^\s;|&<>()])*$/.exec(before);
  const word = match ? match[0] : "";
  const head = before.slice(0, before.length - word.length);
  // The first word of the line, or the first after an operator that starts a new command.
  const command = /(^|[;&|(!])\s*$/.test(head) || /(^|[;&|(])\s*(then|do|else|time|command|exec)\s+$/.test(head);
  return { word, command };
}

const unescape = (word: string) => word.replace(/\\(.)/g, "$1");
const escape = (name: string) => name.replace(/([\s\\'"$`!*?[\]{}();&|<>#~])/g, "\\$1");

export class ShellCompleter {
  private commands: Promise<string[]> | undefined;

  constructor(private readonly runtime: () => Runtime) {}

  /** Forget the command names (another runtime). */
  reset(): void {
    this.commands = undefined;
  }

  private commandNames(): Promise<string[]> {
    this.commands ??= this.runtime()
      .exec('for d in $(echo "$PATH" | tr ":" " "); do ls -1 "$d" 2>/dev/null; done', { timeoutMs: 5_000 })
      .then((result) => result.stdout.split("\n").filter((name) => name !== ""))
      .catch(() => [])
      .then((names) => [...new Set([...BUILTINS, ...names])].sort());
    return this.commands;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const { word, command } = wordAt(request.before);
    if (command && !word.includes("/")) {
      const names = await this.commandNames();
      return { word, candidates: names.filter((name) => name.startsWith(word)) };
    }
    return { word, candidates: await this.paths(word, request.cwd) };
  }

  private async paths(word: string, cwd: string): Promise<string[]> {
    const typed = unescape(word);
    const slash = typed.lastIndexOf("/");
    const folderPart = slash === -1 ? "" : typed.slice(0, slash + 1);
    const namePart = typed.slice(slash + 1);
    const runtime = this.runtime();
    const home = runtime.root;
    const expanded = folderPart.startsWith("~/") ? join(home, folderPart.slice(2)) : folderPart;
    const folder = resolve(cwd, expanded || ".");
    const entries = await runtime.fs.readdir(folder).catch(() => []);
    const shown = entries
      // Hidden files only when asked for with a leading dot, as bash does.
      .filter((entry) => entry.name.startsWith(namePart) && (namePart.startsWith(".") || !entry.name.startsWith(".")))
      .map((entry) => `${escape(folderPart).replace(/^\\~/, "~")}${escape(entry.name)}${entry.type === "directory" ? "/" : ""}`);
    return shown.sort();
  }
}

/** The longest start all candidates share. */
export function commonStart(candidates: readonly string[]): string {
  if (candidates.length === 0) return "";
  let start = candidates[0]!;
  for (const candidate of candidates) {
    while (!candidate.startsWith(start)) start = start.slice(0, -1);
  }
  return start;
}
