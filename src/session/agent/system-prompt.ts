/**
 * The system prompt of a model step, in OpenCode's order:
 *   1. the base prompt for the model's family (ours: one shared text plus a short note per family, in
 *      system/), unless the agent has a prompt of its own, which replaces it;
 *   2. the environment, in OpenCode's `<env>` shape (model, working directory, git, platform and runtime,
 *      date);
 *   3. instruction files, each as "Instructions from: <path>" and its text: the workspace's AGENTS.md (else
 *      CLAUDE.md, else CONTEXT.md), the global AGENTS.md (else ~/.claude/CLAUDE.md), then the config's
 *      `instructions` (paths and globs relative to the workspace).
 * One shared base rather than four texts: the way to work is the same whatever the model; what differs is
 * a few habits per family, so only those are kept apart and a change to the rules is made once.
 *
 * Files are read through the Runtime, so the same code serves the page and the CLI.
 */
import { isAbsolute, join } from "pathe";
import type { Runtime, RuntimeKind } from "../../runtime/types.js";
import type { Agent } from "./types.js";
import type { ModelInfo } from "../provider/types.js";
import anthropicNotes from "./system/anthropic.txt?raw";
import basePrompt from "./system/base.txt?raw";
import geminiNotes from "./system/gemini.txt?raw";
import openaiNotes from "./system/openai.txt?raw";
import otherNotes from "./system/other.txt?raw";
import { insideWorkspace } from "../config/inside-workspace.js";
import type { WorkspaceConfig } from "../config/workspace-config.js";
import { errorMessage } from "../../base/error-message.js";

export type ModelFamily = "anthropic" | "openai" | "gemini" | "other";

export interface SystemPromptOptions {
  agent: Pick<Agent, "prompt">;
  model: Pick<ModelInfo, "providerID" | "modelID">;
  runtime: Runtime;
  config: WorkspaceConfig;
  now: Date;
  /** The global config folder, whose AGENTS.md applies to every workspace. */
  globalConfigDir?: string;
  /** The home folder: `~/` in `instructions`, and the ~/.claude/CLAUDE.md fallback. */
  home?: string;
  /** "browser" or "node"; found out from the environment when absent. */
  platform?: string;
  /**
   * Whether the person trusts the workspace. Until then its `instructions` may only name files inside it:
   * `~/.ssh/id_rsa` in a shared workspace's config would otherwise go into the prompt, to the provider.
   */
  trusted?: boolean;
  /** Told of every instruction file skipped (missing, unreadable, a URL) and why. */
  onNote?: (note: string) => void;
}

/** Which base prompt notes a model gets, from its id as the provider knows it (OpenCode decides the same way). */
export function modelFamily(model: Pick<ModelInfo, "providerID" | "modelID">): ModelFamily {
  const id = model.modelID.toLowerCase();
  if (id.includes("claude")) return "anthropic";
  if (/(^|[/:])(gpt-|o1|o3|o4|codex)/.test(id)) return "openai";
  if (id.includes("gemini")) return "gemini";
  return "other";
}

const FAMILY_NOTES: Record<ModelFamily, string> = {
  anthropic: anthropicNotes,
  openai: openaiNotes,
  gemini: geminiNotes,
  other: otherNotes,
};

/** The base prompt for a model: the shared text and its family's notes. */
export function basePromptFor(model: Pick<ModelInfo, "providerID" | "modelID">): string {
  return `${basePrompt.trim()}\n\n${FAMILY_NOTES[modelFamily(model)].trim()}`;
}

/** The system prompt's parts, in order; the loop sends them joined or as separate system messages. */
export async function systemPrompt(options: SystemPromptOptions): Promise<string[]> {
  const base =
    options.agent.prompt !== undefined && options.agent.prompt.trim() !== "" ? options.agent.prompt : basePromptFor(options.model);
  return [base, await environment(options), ...(await instructions(options))];
}

const RUNTIME_NOTES: Record<RuntimeKind, string> = {
  embedded:
    "embedded (an in-page bash interpreter with common Unix commands, git, node for JavaScript and TypeScript (node --test included), npm (scripts, and installs from a registry), and python3: CPython with its standard library, pip installs of pure-Python wheels, no threads or subprocesses; no other network access)",
  webcontainer: "webcontainer (node and npm run inside the browser; commands run in its jsh shell)",
  node: "node (real processes on this machine)",
};

/** OpenCode's environment block, with the runtime added: what the model can expect of its commands. */
async function environment(options: SystemPromptOptions): Promise<string> {
  const { runtime, model } = options;
  const git = await exists(runtime, join(runtime.root, ".git"));
  return [
    `You are powered by the model named ${model.modelID}. The exact model ID is ${model.providerID}/${model.modelID}`,
    "Here is some useful information about the environment you are running in:",
    "<env>",
    `  Working directory: ${runtime.root}`,
    `  Workspace root folder: ${runtime.root}`,
    `  Is directory a git repo: ${git ? "yes" : "no"}`,
    `  Platform: ${options.platform ?? detectPlatform()}`,
    `  Runtime: ${RUNTIME_NOTES[runtime.kind]}`,
    `  Today's date: ${options.now.toDateString()}`,
    "</env>",
  ].join("\n");
}

const RULE_FILES = ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/** Each instruction file as "Instructions from: <path>" and its text, each file once, in OpenCode's order. */
async function instructions(options: SystemPromptOptions): Promise<string[]> {
  const { runtime } = options;
  const note = options.onNote ?? (() => {});
  const paths: string[] = [];
  // The workspace is both the working directory and the worktree here, so the walk up is one folder.
  const project = await firstExisting(
    runtime,
    RULE_FILES.map((name) => join(runtime.root, name)),
  );
  // A rule file that is a link out of the workspace would read any file (a key) into the prompt: refused untrusted, as instructions are.
  if (project && options.trusted !== true && !(await insideWorkspace(runtime, project)))
    note(
      `${project} is a link to a file outside the workspace, which an untrusted workspace may not read; it was left out of the instructions (trust the workspace, or replace the link with the file itself)`,
    );
  else if (project) paths.push(project);
  const global = await firstExisting(runtime, [
    ...(options.globalConfigDir ? [join(options.globalConfigDir, "AGENTS.md")] : []),
    ...(options.home ? [join(options.home, ".claude", "CLAUDE.md")] : []),
  ]);
  if (global) paths.push(global);
  paths.push(...(await configured(options, note)));

  const parts: string[] = [];
  for (const path of new Set(paths)) {
    const text = await runtime.fs.readFile(path).then(
      (bytes) => new TextDecoder().decode(bytes),
      (error: unknown) => {
        note(`${path} could not be read (${errorMessage(error)}); it was left out of the instructions`);
        return undefined;
      },
    );
    if (text !== undefined && text.trim() !== "") parts.push(`Instructions from: ${path}\n${text.trim()}`);
  }
  return parts;
}

/** The files the config's `instructions` name: exact paths, or globs matched from the workspace root. */
async function configured(options: SystemPromptOptions, note: (text: string) => void): Promise<string[]> {
  const { runtime, config } = options;
  if (config.instructions === undefined) return [];
  if (!Array.isArray(config.instructions)) {
    note(`instructions must be a list of paths or globs, e.g. ["CONTRIBUTING.md", "docs/*.md"]; it was ignored`);
    return [];
  }
  const paths: string[] = [];
  for (const entry of config.instructions as unknown[]) {
    if (typeof entry !== "string" || entry.trim() === "") {
      note(`instructions: ${JSON.stringify(entry)} is not a path; it was ignored`);
      continue;
    }
    if (/^https?:\/\//.test(entry)) {
      note(`instructions: ${entry} is a URL; only files in the workspace are read, so it was left out (save it as a file to use it)`);
      continue;
    }
    const path =
      entry.startsWith("~/") && options.home ? join(options.home, entry.slice(2)) : isAbsolute(entry) ? entry : join(runtime.root, entry);
    const allowed = async (file: string) => {
      if (options.trusted === true || (await insideWorkspace(runtime, file))) return true;
      note(
        `instructions: ${file} is outside the workspace, which an untrusted workspace's config may not read; it was skipped (trust the workspace to use it)`,
      );
      return false;
    };
    if (!/[*?[{]/.test(entry)) {
      if (!(await exists(runtime, path))) note(`instructions: ${entry} does not exist (looked for ${path}); it was skipped`);
      else if (await allowed(path)) paths.push(path);
      continue;
    }
    const matches = await glob(runtime, path);
    if (matches.length === 0) note(`instructions: ${entry} matches no file; it was skipped`);
    for (const match of matches) if (await allowed(match)) paths.push(match);
  }
  return paths;
}

/**
 * Files matching an absolute glob, sorted: the walk starts at the glob's last plain folder and the rest is
 * anchored there. It is ripgrep's walk, so ignored files (.gitignore in a repo) are not matched.
 */
async function glob(runtime: Runtime, pattern: string): Promise<string[]> {
  const segments = pattern.split("/");
  const firstGlob = segments.findIndex((segment) => /[*?[{]/.test(segment));
  const root = segments.slice(0, firstGlob).join("/") || "/";
  const rest = segments.slice(firstGlob).join("/");
  if (!(await exists(runtime, root))) return [];
  const found: string[] = [];
  for await (const file of runtime.search.list({ root, hidden: true, globs: [`/${rest}`] })) found.push(file.path);
  return found.sort();
}

async function firstExisting(runtime: Runtime, paths: string[]): Promise<string | undefined> {
  for (const path of paths) if (await exists(runtime, path)) return path;
  return undefined;
}

function exists(runtime: Runtime, path: string): Promise<boolean> {
  return runtime.fs.stat(path).then(
    () => true,
    () => false,
  );
}

function detectPlatform(): string {
  if (typeof window !== "undefined" && typeof document !== "undefined") return "browser";
  const node = (globalThis as { process?: { platform?: string; versions?: { node?: string } } }).process;
  if (node?.versions?.node) return `node (${node.platform ?? "unknown"})`;
  // A Web Worker has a navigator but no window.
  return typeof navigator !== "undefined" ? "browser" : "unknown";
}
