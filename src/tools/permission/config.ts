/**
 * The `permission` section of a config file, turned into an ordered ruleset.
 *
 * Key order is meaning: rules are evaluated "last match wins", so `{"*": "deny", "bash": "allow"}` allows bash
 * and the same two entries the other way round deny it. We therefore read entries with `Object.entries`, which
 * keeps insertion order, and never pass the section through anything that rebuilds objects by known keys.
 *
 * One trap remains, and it is JavaScript's, not ours: an object lists integer-like keys ("0", "42") first, in
 * ascending order, whatever order the JSON text had them in. `JSON.parse('{"b": 1, "7": 2}')` yields
 * `["7", "b"]`. Permission names and path patterns are practically never bare integers, so we document this
 * rather than parse JSON ourselves.
 */
import { z } from "zod";
import type { Action, Rule, RuleSource, Ruleset } from "./types.js";
import { engineName } from "./v2-names.js";
import { errorMessage } from "../../base/error-message.js";

export type PatternActions = Record<string, Action>;
export type PermissionConfig = Action | Record<string, Action | PatternActions>;

export interface RulesFromConfigOptions {
  /** Expands a leading `~` or `$HOME` in patterns, so rules about the user's files survive a move. */
  home: string;
  /** Recorded on every rule so a decision can later say where it came from. Defaults to "config". */
  source?: RuleSource;
}

const ACTIONS: readonly Action[] = ["allow", "ask", "deny"];
const ALLOWED = `"allow", "ask" or "deny"`;

export function isAction(value: unknown): value is Action {
  return typeof value === "string" && (ACTIONS as readonly string[]).includes(value);
}

/**
 * Checks the shape of a `permission` section and returns it typed; throws an Error naming the bad entry.
 * `at` is where the section sits, for the message (`agent.review.permission`).
 */
export function validatePermissionConfig(permission: unknown, at = "permission"): PermissionConfig {
  if (typeof permission === "string") {
    if (!isAction(permission)) throw new Error(`${at} must be ${ALLOWED}, got ${describe(permission)}${caseHint(permission)}`);
    return permission;
  }
  if (!isPlainObject(permission)) {
    throw new Error(`${at} must be ${ALLOWED}, or an object mapping permission names to actions, got ${describe(permission)}`);
  }
  for (const [key, value] of Object.entries(permission)) {
    const where = `${at}${member(key)}`;
    if (typeof value === "string") {
      if (!isAction(value)) throw new Error(`${where} must be ${ALLOWED}, got ${describe(value)}${caseHint(value)}`);
      continue;
    }
    if (!isPlainObject(value)) {
      throw new Error(`${where} must be ${ALLOWED}, or an object mapping patterns to actions, got ${describe(value)}`);
    }
    for (const [pattern, action] of Object.entries(value)) {
      if (!isAction(action)) {
        throw new Error(`${where}[${JSON.stringify(pattern)}] must be ${ALLOWED}, got ${describe(action)}${caseHint(action)}`);
      }
    }
  }
  return permission as PermissionConfig;
}

/**
 * One rule per config entry, in the order written: a bare action becomes `{permission: "*", pattern: "*"}`,
 * `key: action` becomes pattern "*", and `key: {pattern: action, ...}` one rule per pattern.
 */
export function rulesFromConfig(permission: unknown, options: RulesFromConfigOptions): Ruleset {
  const config = validatePermissionConfig(permission);
  const source = options.source ?? "config";
  // V2's names (`shell`, `subagent`, `patch`) are read in a V1 map too, as the permission the engine asks under.
  const rule = (key: string, pattern: string, action: Action): Rule => ({ permission: engineName(key), pattern, action, source });
  if (typeof config === "string") return [rule("*", "*", config)];
  const rules: Ruleset = [];
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === "string") {
      rules.push(rule(key, "*", value));
      continue;
    }
    for (const [pattern, action] of Object.entries(value)) rules.push(rule(key, expandHome(pattern, options.home), action));
  }
  return rules;
}

/**
 * `~`, `~/x`, `$HOME` and `$HOME/x` at the start of a pattern name the home folder; nothing else is expanded,
 * because patterns are globs, not shell words. Unlike OpenCode, `$HOMEBREW/...` is left alone: it names a
 * different variable, and gluing the home path onto "BREW" would silently produce a rule about a folder that
 * does not exist.
 */
export function expandHome(pattern: string, home: string): string {
  const base = home.length > 1 ? home.replace(/\/+$/, "") : home;
  const join = (rest: string) => (base === "/" && rest.startsWith("/") ? rest : base + rest);
  if (pattern === "~" || pattern === "$HOME") return base;
  if (pattern.startsWith("~/")) return join(pattern.slice(1));
  if (pattern.startsWith("$HOME/")) return join(pattern.slice(5));
  return pattern;
}

/**
 * For config loaders built on zod. Written as a transform over the same validator rather than as a
 * `z.object` of known keys: such a schema would put known keys first and so reorder the rules.
 */
export const permissionConfigSchema = z.unknown().transform((value, ctx): PermissionConfig => {
  try {
    return validatePermissionConfig(value);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: errorMessage(error) });
    return z.NEVER;
  }
});

/**
 * Every problem of a `permission` section with where it is (path from the section), for a schema that
 * reports all problems of a file at once. Says the same as validatePermissionConfig.
 */
function permissionProblems(permission: unknown): Array<{ path: string[]; message: string }> {
  if (typeof permission === "string") {
    return isAction(permission) ? [] : [{ path: [], message: `must be ${ALLOWED}, got ${describe(permission)}${caseHint(permission)}` }];
  }
  if (!isPlainObject(permission)) {
    return [{ path: [], message: `must be ${ALLOWED}, or an object mapping permission names to actions, got ${describe(permission)}` }];
  }
  const problems: Array<{ path: string[]; message: string }> = [];
  for (const [key, value] of Object.entries(permission)) {
    if (typeof value === "string") {
      if (!isAction(value)) problems.push({ path: [key], message: `must be ${ALLOWED}, got ${describe(value)}${caseHint(value)}` });
      continue;
    }
    if (!isPlainObject(value)) {
      problems.push({ path: [key], message: `must be ${ALLOWED}, or an object mapping patterns to actions, got ${describe(value)}` });
      continue;
    }
    for (const [pattern, action] of Object.entries(value)) {
      if (!isAction(action))
        problems.push({ path: [key, pattern], message: `must be ${ALLOWED}, got ${describe(action)}${caseHint(action)}` });
    }
  }
  return problems;
}

/** A `permission` section as a zod schema that reports every bad entry at its own path; the value is left as written. */
export const permissionSectionSchema = z.unknown().superRefine((value, ctx) => {
  for (const problem of permissionProblems(value)) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function member(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

function caseHint(value: unknown): string {
  return typeof value === "string" && isAction(value.toLowerCase()) ? " (actions are lowercase)" : "";
}
