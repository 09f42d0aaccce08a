/**
 * OpenCode V2's `permissions`: an ordered list of `{action, resource, effect}` rules. It means what the V1
 * `permission` map means once flattened (last matching rule wins, no match asks, a call with several
 * resources is denied by any deny and otherwise asks if any asks, a pattern ending in " *" covers the bare
 * command), so both shapes become the one Ruleset the engine already evaluates. Only the names differ:
 * V2 calls the shell `shell`, subagents `subagent`, and its patch tool `patch`; the engine keeps one key per
 * permission so that a rule written either way covers the tool under either of its names.
 */
import { z } from "zod";
import { expandHome } from "./config.js";
import type { Action, Rule, RuleSource, Ruleset } from "./types.js";
import { engineName } from "./v2-names.js";

export { engineName, v2Name } from "./v2-names.js";

const EFFECT_ERROR = 'must be "allow", "ask" or "deny"';

/** One rule of a `permissions` list; unknown keys are refused, since a typo (`efect`) would silently ask. */
const V2RuleSchema = z.strictObject(
  {
    action: z.string({ error: 'must be a string naming an action, such as "shell", "edit" or "*"' }).min(1, {
      error: 'must not be empty: name an action, such as "shell", "edit" or "*"',
    }),
    resource: z.string({ error: 'must be a string: a path, command, URL or agent name pattern, or "*" for every one' }),
    effect: z.enum(["allow", "ask", "deny"], { error: EFFECT_ERROR }),
  },
  { error: 'must be an object { "action": ..., "resource": ..., "effect": ... }' },
);

export type V2Rule = z.infer<typeof V2RuleSchema>;

export const V2PermissionsSchema = z.array(V2RuleSchema, {
  error: 'must be a list of rules, e.g. [{ "action": "shell", "resource": "git *", "effect": "allow" }]',
});

export interface V2RulesOptions {
  /** Expands a leading `~` or `$HOME` in resources, as for V1 patterns. */
  home: string;
  source?: RuleSource;
}

/** The list as engine rules, in the order written; throws an Error naming the first bad entry's path. */
export function rulesFromV2(permissions: unknown, options: V2RulesOptions, at = "permissions"): Ruleset {
  const parsed = V2PermissionsSchema.safeParse(permissions);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = at + issue.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
    throw new Error(`${where} ${issue.message}`);
  }
  const source = options.source ?? "config";
  return parsed.data.map(
    (rule): Rule => ({
      permission: engineName(rule.action),
      pattern: expandHome(rule.resource, options.home),
      action: rule.effect as Action,
      source,
      written: "v2",
    }),
  );
}

/** The message for a file (or agent entry) that holds both shapes; `at` is where, e.g. `agent.review.`. */
export function bothShapesMessage(at = ""): string {
  return `${at}permission (OpenCode V1's map) and ${at}permissions (V2's ordered list) are both set: OpenCode V2 follows only ${at}permissions and V1 only ${at}permission, so this file means different things to each. Keep one: move the rules of the other into it and remove it`;
}
