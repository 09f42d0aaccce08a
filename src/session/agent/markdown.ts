/**
 * Markdown agents: `{agent,agents}/**\/*.md` in a config folder (the global one, then the workspace's
 * `.opencode`), and the older `{mode,modes}/*.md`, which are primary agents. The file name is the agent's
 * name (`agent/review/deep.md` is `review/deep`) unless the frontmatter says `name`; the frontmatter holds
 * the settings (as in opencode.json) and the body is the prompt. As in OpenCode, nothing is substituted in
 * markdown files: `{env:...}` and `{file:...}` stay as written.
 */
import { join } from "pathe";
import type { Runtime } from "../../runtime/types.js";
import { AgentConfigError, parseAgentEntry, type AgentEntry } from "../config/agent-entries.js";
import { FrontmatterError, parseFrontmatter } from "./frontmatter.js";
import { errorMessage } from "../../base/error-message.js";

export interface MarkdownAgent {
  file: string;
  /** The name from the file's path, before any frontmatter `name`. */
  key: string;
  entry: AgentEntry;
}

export interface MarkdownProblem {
  file: string;
  key: string;
  error: string;
}

/** Every markdown agent in one config folder, in a stable order (by path). */
export async function loadMarkdownAgents(
  runtime: Runtime,
  configDir: string,
): Promise<{ agents: MarkdownAgent[]; problems: MarkdownProblem[] }> {
  const agents: MarkdownAgent[] = [];
  const problems: MarkdownProblem[] = [];
  const sources = [
    ...["agent", "agents"].map((folder) => ({ folder, recursive: true, primary: false })),
    ...["mode", "modes"].map((folder) => ({ folder, recursive: false, primary: true })),
  ];
  for (const { folder, recursive, primary } of sources) {
    const base = join(configDir, folder);
    for (const relative of await markdownFiles(runtime, base, recursive)) {
      const file = join(base, relative);
      const key = relative.slice(0, -".md".length);
      try {
        const text = new TextDecoder().decode(await runtime.fs.readFile(file));
        agents.push({ file, key, entry: markdownEntry(text, primary) });
      } catch (error) {
        problems.push({ file, key, error: describe(error) });
      }
    }
  }
  return { agents, problems };
}

/** One markdown agent's settings: its frontmatter checked like an opencode.json entry, its body as the prompt. */
function markdownEntry(text: string, primary = false): AgentEntry {
  const { attributes, body } = parseFrontmatter(text);
  const entry = parseAgentEntry(attributes, "frontmatter");
  // The body always replaces the prompt; an empty one leaves the model family's base prompt in charge.
  entry.prompt = body.trim();
  if (primary) entry.mode = "primary";
  return entry;
}

async function markdownFiles(runtime: Runtime, base: string, recursive: boolean, prefix = ""): Promise<string[]> {
  const entries = await runtime.fs.readdir(prefix === "" ? base : join(base, prefix)).catch(() => []);
  const files: string[] = [];
  for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.type === "directory") {
      if (recursive) files.push(...(await markdownFiles(runtime, base, recursive, relative)));
    } else if (entry.name.endsWith(".md")) {
      files.push(relative);
    }
  }
  return files;
}

function describe(error: unknown): string {
  if (error instanceof FrontmatterError || error instanceof AgentConfigError) return error.message;
  return `could not be read: ${errorMessage(error)}`;
}
