/**
 * The workspace's `opencode.json` (or `opencode.jsonc`): permission rules, legacy tool switches,
 * per-agent settings and experimental flags. Read with a JSONC parser, which keeps key order (order is
 * meaning for permission rules) and allows comments; written back the same way, so saving an approval
 * keeps the user's formatting and comments.
 */
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { join } from "pathe";
import type { Runtime } from "../runtime/types.js";
import { isAction, validatePermissionConfig } from "../tools/permission/config.js";
import type { Action } from "../tools/permission/types.js";

export interface AgentConfig {
  permission?: unknown;
  tools?: Record<string, boolean>;
  /** The rest (model, prompt, mode, temperature, steps, ...) is read by src/session/agent. */
  [key: string]: unknown;
}

export interface WorkspaceConfig {
  permission?: unknown;
  tools?: Record<string, boolean>;
  agent?: Record<string, AgentConfig>;
  experimental?: { batch_tool?: boolean; [key: string]: unknown };
  /** "provider/model"; read (with `small_model` and `provider`) by src/session/provider. */
  model?: unknown;
  small_model?: unknown;
  provider?: unknown;
  /** Extra instruction files (paths or globs, relative to the workspace); read by src/session/system. */
  instructions?: unknown;
  [key: string]: unknown;
}

const NAMES = ["opencode.json", "opencode.jsonc"];

async function findConfig(runtime: Runtime): Promise<string | undefined> {
  for (const name of NAMES) {
    const path = join(runtime.root, name);
    if (await runtime.fs.stat(path).then(() => true, () => false)) return path;
  }
  return undefined;
}

export async function loadWorkspaceConfig(runtime: Runtime): Promise<{ config: WorkspaceConfig; path?: string }> {
  const path = await findConfig(runtime);
  if (!path) return { config: {} };
  const text = new TextDecoder().decode(await runtime.fs.readFile(path));
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split("\n").length;
    throw new Error(`${path} is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}. Fix the file, or remove it to use the defaults.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${path} must hold a JSON object ({ "permission": ... }), not ${Array.isArray(value) ? "an array" : typeof value}.`);
  }
  return { config: value as WorkspaceConfig, path };
}

/**
 * Adds approvals ("always allow") to the workspace config as `permission.<permission>.<pattern>: "allow"`,
 * after the rules already there, so they win as they did in the session.
 */
export async function saveApprovals(runtime: Runtime, approvals: Array<{ permission: string; pattern: string }>): Promise<string> {
  const path = (await findConfig(runtime)) ?? join(runtime.root, "opencode.json");
  let text = await runtime.fs.readFile(path).then((bytes) => new TextDecoder().decode(bytes), () => "{}\n");
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
  const path = (await findConfig(runtime)) ?? join(runtime.root, "opencode.json");
  const text = await runtime.fs.readFile(path).then((bytes) => new TextDecoder().decode(bytes), () => "{}\n");
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
