/**
 * The workspace's `opencode.json` (or `opencode.jsonc`): permission rules, legacy tool switches,
 * per-agent settings and experimental flags. Read with a JSONC parser, which keeps key order (order is
 * meaning for permission rules) and allows comments; written back the same way, so saving an approval
 * keeps the user's formatting and comments.
 */
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { join } from "pathe";
import { z } from "zod";
import type { Runtime } from "../../runtime/types.js";
import { isAction, permissionSectionSchema, validatePermissionConfig } from "../../tools/permission/config.js";
import { AgentEntrySchema } from "./agent-entries.js";
import { bothShapesMessage, V2PermissionsSchema } from "../../tools/permission/v2.js";
import { ToolNamesSchema } from "./tool-names.js";
import { ShellLimitsSchema } from "../../workspace/shell-limits.js";
import { insideWorkspace } from "./inside-workspace.js";
import { jsonPath, ProvidersConfig } from "../provider/config.js";
import type { Action } from "../../tools/permission/types.js";

const NAMES = ["opencode.json", "opencode.jsonc"];
/** The names the workspace config may have, at the workspace's root (the page watches them). */
export const CONFIG_FILE_NAMES: readonly string[] = NAMES;

/**
 * The whole file's shape, composed from the parts' own schemas (providers: src/session/provider/config.ts,
 * agents: src/session/config/agent-entries.ts, permission: src/tools/permission/config.ts). Keys it does not know
 * are allowed, as OpenCode has many this app does not use. Only checked: the file's own object is what the
 * rest reads, because a parsed copy would reorder permission rules (order is meaning there).
 */
/** OpenCode V2's `experimental.subagent_depth`: how many levels of subagents may nest. */
export const SubagentDepthSchema = z
  .number({ error: "must be a whole number of levels, 1 or more" })
  .int({ error: "must be a whole number of levels, 1 or more" })
  .min(1, { error: "must be 1 or more (1: subagents start no subagents)" });

const WorkspaceConfigSchema = ProvidersConfig.extend({
  $schema: z.string().optional(),
  permission: permissionSectionSchema.optional(),
  // OpenCode V2's ordered list (src/tools/permission/v2.ts); a file holding both shapes is refused below.
  permissions: V2PermissionsSchema.optional(),
  tools: z
    .record(z.string(), z.boolean({ error: "must be true or false" }), {
      error: 'must be an object of tool names to true or false, e.g. { "bash": false }',
    })
    .optional(),
  agent: z
    .record(z.string(), AgentEntrySchema.extend({ permission: permissionSectionSchema.optional() }), {
      error: "must be an object of agent names to their settings",
    })
    .optional(),
  // OpenCode V2's name for `agent`.
  agents: z
    .record(z.string(), AgentEntrySchema, {
      error: "must be an object of agent names to their settings",
    })
    .optional(),
  default_agent: z.string({ error: "must be a string naming a primary agent" }).optional(),
  experimental: z
    .looseObject(
      {
        batch_tool: z.boolean({ error: "must be true or false" }).optional(),
        /** How long a custom tool may run, in milliseconds (default: the bash tool's 2 minutes). */
        tool_timeout: z
          .number({ error: "must be a number of milliseconds" })
          .int({ error: "must be a whole number of milliseconds" })
          .positive({ error: "must be more than 0 milliseconds" })
          .optional(),
        // OpenCode V2's limit on nested subagents (subagent-depth.ts).
        subagent_depth: SubagentDepthSchema.optional(),
      },
      { error: "must be an object" },
    )
    .optional(),
  // The workbench's own keys, not OpenCode's: all under this one key.
  workbench: z
    .looseObject(
      {
        shell: ShellLimitsSchema.optional(),
        // OpenCode turns these on by environment variables, which a page does not have.
        planMode: z.boolean({ error: "must be true or false" }).optional(),
        experimentalLspTool: z.boolean({ error: "must be true or false" }).optional(),
        // OpenCode V2's Code Mode (the execute tool), OPENCODE_EXPERIMENTAL_CODE_MODE in V2.
        experimentalCodeMode: z.boolean({ error: "must be true or false" }).optional(),
        // Which names the model sees for the shell, subagent and patch tools; "v2" when the file is V2's.
        toolNames: ToolNamesSchema.optional(),
        // Issue 20: a URL template the page fetches through when a site refuses cross-origin reads.
        fetchProxy: z.string({ error: 'must be a URL template such as "https://your-proxy.example/?url={url}"' }).optional(),
        // Where websearch and codesearch send queries instead of Exa's hosted endpoint.
        exaUrl: z.url({ protocol: /^https?$/, error: "must be an http or https URL of an Exa-compatible MCP endpoint" }).optional(),
      },
      { error: "must be an object of this app's own settings" },
    )
    .optional(),
  instructions: z
    .array(z.string({ error: "must be a path or glob" }), { error: 'must be a list of paths or globs, e.g. ["CONTRIBUTING.md"]' })
    .optional(),
}).catchall(z.unknown());

/** The file as checked: one type from the one schema (the parts' types come from their own schemas). */
export type WorkspaceConfig = z.input<typeof WorkspaceConfigSchema>;

/** One problem of the file: where (a JSON path such as `agent.review.temperature`) and what. */
export interface ConfigProblem {
  path: string;
  message: string;
}

export class WorkspaceConfigError extends Error {
  override readonly name = "WorkspaceConfigError";
  constructor(
    readonly file: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(
      `${file} has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join("; ")}. Fix ${problems.length === 1 ? "it" : "them"}, or remove the file to use the defaults.`,
    );
  }
}

/**
 * Every problem of a parsed opencode.json, each at its exact path; empty when the file is fine. Problems
 * inside one `agent.<name>` entry are left to src/session/agent, which removes that agent and reports
 * them (with the same paths) rather than stop the whole workspace; `only: "all"` includes them.
 */
export function configProblems(value: unknown, only: "fatal" | "all" = "fatal"): ConfigProblem[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const what = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    return [{ path: "(top level)", message: `must be a JSON object ({ "permission": ... }), not ${what}` }];
  }
  const both = "permission" in value && "permissions" in value ? [{ path: "permissions", message: bothShapesMessage() }] : [];
  const result = WorkspaceConfigSchema.safeParse(value);
  if (result.success) return both;
  return [
    ...both,
    ...result.error.issues
      .filter((issue) => only === "all" || !((issue.path[0] === "agent" || issue.path[0] === "agents") && issue.path.length >= 2))
      .map((issue) => ({ path: jsonPath(issue.path), message: issue.message })),
  ];
}

async function findConfig(runtime: Runtime): Promise<string | undefined> {
  for (const name of NAMES) {
    const path = join(runtime.root, name);
    // lstat: a dangling link is still "there", and must not silently fall through to the next name.
    if (
      await runtime.fs.lstat(path).then(
        () => true,
        () => false,
      )
    )
      return path;
  }
  return undefined;
}

export interface LoadConfigOptions {
  /**
   * Whether the person trusts the workspace. An untrusted workspace's opencode.json that is a link to a
   * file outside it is not read (it is reported in `problem`); true reads it. Untrusted when absent.
   */
  trusted?: boolean;
}

export interface LoadedConfig {
  config: WorkspaceConfig;
  path?: string;
  /** Why the file was there but not read (a link out of an untrusted workspace). */
  problem?: { file: string; error: string };
}

/**
 * The file to save rules into. Never through a link that leaves the workspace: saving would write the
 * person's approvals into whatever file the link names.
 */
export async function configToWrite(runtime: Runtime): Promise<string> {
  const path = (await findConfig(runtime)) ?? join(runtime.root, "opencode.json");
  const entry = await runtime.fs.lstat(path).catch(() => undefined);
  if (entry?.type === "symlink" && !(await insideWorkspace(runtime, path))) {
    throw new Error(
      `${path} is a link to a file outside the workspace, so nothing was saved into it: replace the link with the file itself, then save again.`,
    );
  }
  return path;
}

export async function loadWorkspaceConfig(runtime: Runtime, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const path = await findConfig(runtime);
  if (!path) return { config: {} };
  const entry = await runtime.fs.lstat(path);
  if (entry.type === "symlink" && options.trusted !== true && !(await insideWorkspace(runtime, path))) {
    const target = await runtime.fs.readlink(path).catch(() => "an unreadable target");
    return {
      config: {},
      problem: {
        file: path,
        error: `it is a link to ${target}, outside the workspace, so it was not read: a workspace's config may only come from the workspace. Trust the workspace to read it, or replace the link with the file itself`,
      },
    };
  }
  const kind =
    entry.type === "symlink"
      ? await runtime.fs.stat(path).then(
          (stat) => stat.type,
          () => "missing",
        )
      : entry.type;
  if (kind === "missing")
    throw new Error(`${path} is a link to a file that does not exist: remove the link, or point it at an opencode.json.`);
  if (kind === "directory")
    throw new Error(`${path} is a folder, not a file: the workspace config must be a JSON file. Rename or remove the folder.`);
  const text = new TextDecoder().decode(await runtime.fs.readFile(path));
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split("\n").length;
    throw new Error(
      `${path} is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}. Fix the file, or remove it to use the defaults.`,
    );
  }
  const problems = configProblems(value);
  if (problems.length > 0) throw new WorkspaceConfigError(path, problems);
  return { config: value as WorkspaceConfig, path };
}

/**
 * Adds approvals ("always allow") to the workspace config as `permission.<permission>.<pattern>: "allow"`,
 * after the rules already there, so they win as they did in the session.
 */
export async function saveApprovals(runtime: Runtime, approvals: Array<{ permission: string; pattern: string }>): Promise<string> {
  const path = await configToWrite(runtime);
  let text = await runtime.fs.readFile(path).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => "{}\n",
  );
  const current = parse(text, [], { allowTrailingComma: true }) as WorkspaceConfig | undefined;
  const format = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };
  if (typeof current?.permission === "string") {
    // `"permission": "ask"` means every permission; spelled out, approvals can follow it.
    text = applyEdits(text, modify(text, ["permission"], { "*": current.permission }, format));
  }
  for (const { permission, pattern } of approvals) {
    const existing = (current?.permission as Record<string, unknown> | undefined)?.[permission];
    if (typeof existing === "string") {
      // A single action for every pattern becomes a map, keeping it as the first (lowest) rule.
      text = applyEdits(text, modify(text, ["permission", permission], { "*": existing }, format));
    }
    text = applyEdits(text, modify(text, ["permission", permission, pattern], "allow", format));
  }
  await runtime.fs.writeFile(path, text.endsWith("\n") ? text : `${text}\n`);
  return path;
}

/** One entry of the config's top-level `permission` section, as written (a `~` stays a `~`). */
export interface ConfigRule {
  permission: string;
  pattern: string;
  action: Action;
}

/**
 * The `permission` section as an ordered list of entries, the way the file spells them: no home
 * expansion, so saving the list back leaves `~/notes/*` as the user wrote it.
 */
export function permissionRulesOf(config: WorkspaceConfig): ConfigRule[] {
  if (config.permission === undefined) return [];
  const section = validatePermissionConfig(config.permission);
  if (typeof section === "string") return [{ permission: "*", pattern: "*", action: section }];
  return Object.entries(section).flatMap(([permission, value]) =>
    typeof value === "string"
      ? [{ permission, pattern: "*", action: value }]
      : Object.entries(value).map(([pattern, action]) => ({ permission, pattern, action })),
  );
}

/**
 * The entries as a `permission` object. The file can only hold a permission's patterns together, so
 * each permission sits where it first appears and its patterns follow in the order given; a lone
 * `"*"` pattern is written the short way (`"bash": "ask"`).
 */
export function permissionSection(rules: readonly ConfigRule[]): Record<string, Action | Record<string, Action>> {
  const grouped = new Map<string, Map<string, Action>>();
  for (const [index, { permission, pattern, action }] of rules.entries()) {
    if (permission.trim() === "" || pattern === "") {
      throw new Error(`rule ${index + 1} needs both a permission (e.g. bash, edit, read or *) and a pattern (* for every one)`);
    }
    if (!isAction(action)) throw new Error(`rule ${index + 1}: the action must be "allow", "ask" or "deny", not ${JSON.stringify(action)}`);
    const patterns = grouped.get(permission) ?? new Map<string, Action>();
    // A repeated pattern replaces the earlier one but moves to the later place, where it decided.
    patterns.delete(pattern);
    patterns.set(pattern, action);
    grouped.set(permission, patterns);
  }
  const section: Record<string, Action | Record<string, Action>> = {};
  for (const [permission, patterns] of grouped) {
    const only = patterns.size === 1 ? patterns.get("*") : undefined;
    section[permission] = only ?? Object.fromEntries(patterns);
  }
  return section;
}

/**
 * Replaces the config's top-level `permission` section with `rules`, leaving every other key and
 * comment of the file as it was (created as `opencode.json` when there is none). Refuses a file that
 * does not parse rather than guess where the section is.
 */
export async function savePermissionRules(runtime: Runtime, rules: readonly ConfigRule[]): Promise<string> {
  const section = permissionSection(rules);
  const path = await configToWrite(runtime);
  const text = await runtime.fs.readFile(path).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => "{}\n",
  );
  const errors: ParseError[] = [];
  const current = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0 || typeof current !== "object" || current === null || Array.isArray(current)) {
    throw new Error(`${path} is not a valid JSON object, so its rules were not changed: fix the file (or remove it) and save again.`);
  }
  const format = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };
  const value = rules.length === 0 ? undefined : section;
  const next = applyEdits(text, modify(text, ["permission"], value, format));
  await runtime.fs.writeFile(path, next.endsWith("\n") ? next : `${next}\n`);
  return path;
}
