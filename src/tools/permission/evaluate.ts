/**
 * The one decision procedure: the LAST rule whose permission and pattern both match wins. There is no
 * specificity ranking on purpose; rulesets compose by concatenation (defaults, then the agent's, then config,
 * then the session's, then approvals), so whatever comes later overrides whatever came before.
 */
import type { Action, Rule, RuleSource, Ruleset } from "./types.js";
import { allowCovers } from "./unresolved.js";
import { v2Name } from "./v2-names.js";
import { matchWildcard } from "./wildcard.js";

export interface Evaluation {
  action: Action;
  /** The deciding rule; absent when nothing matched and "ask" is the fallback. */
  rule?: Rule;
}

export function evaluate(permission: string, pattern: string, ...rulesets: readonly Ruleset[]): Evaluation {
  // Walk backwards instead of flattening: the first hit from the end is the last match, and we stop there.
  for (let r = rulesets.length - 1; r >= 0; r--) {
    const rules = rulesets[r] ?? [];
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i];
      if (rule && matches(rule, permission, pattern)) return { action: actionFor(rule, pattern), rule };
    }
  }
  return { action: "ask" };
}

/** What a matching rule decides for `pattern`: its action, except that an allow must name an unresolved pattern. */
function actionFor(rule: Rule, pattern: string): Action {
  return rule.action === "allow" && !allowCovers(rule.pattern, pattern) ? "ask" : rule.action;
}

function matches(rule: Rule, permission: string, pattern: string): boolean {
  return matchWildcard(permission, rule.permission) && matchWildcard(pattern, rule.pattern);
}

export interface RuleLayer {
  source: RuleSource;
  rules: Ruleset;
  /**
   * Shown but not in force, and why: an untrusted workspace's rules that would loosen protection
   * ("ignored until you trust this workspace"). explain() passes over such a layer.
   */
  ignored?: string;
}

/** Why a workspace's loosening rules are shown but not applied. */
export const UNTRUSTED_IGNORED = "ignored until you trust this workspace";

export interface Explanation extends Evaluation {
  /** Where the deciding rule came from. */
  source?: RuleSource;
  /** Which of the given layers held it. */
  layer?: number;
  /** Its position inside that layer, i.e. the entry of the config section or agent ruleset that decided. */
  index?: number;
  /** One sentence for a person, e.g. `deny, by the config rule edit "*.env": "deny" (last matching rule wins)`. */
  sentence: string;
  /**
   * Set when nothing can ask for the permission (a typo, a tool that is not registered): the permissions
   * that exist. `action` is then only what a rule would say, which never matters.
   */
  known?: readonly string[];
}

/** The same decision as `evaluate`, plus enough provenance to show the user why it came out that way. */
export function explain(permission: string, pattern: string, layers: readonly RuleLayer[]): Explanation {
  const held = layers
    .filter((layer) => layer.ignored !== undefined)
    .flatMap((layer) => layer.rules.filter((rule) => matches(rule, permission, pattern)).map((rule) => ({ rule, why: layer.ignored! })));
  const note = held.length === 0 ? "" : `; ${held.map(({ rule, why }) => `the workspace rule ${describeRule(rule)} is ${why}`).join("; ")}`;
  for (let layer = layers.length - 1; layer >= 0; layer--) {
    const { source, rules, ignored } = layers[layer] ?? { source: "config", rules: [] };
    if (ignored !== undefined) continue;
    for (let index = rules.length - 1; index >= 0; index--) {
      const rule = rules[index];
      if (!rule || !matches(rule, permission, pattern)) continue;
      const action = actionFor(rule, pattern);
      const sentence =
        action === rule.action
          ? `${rule.action}, by the ${source} rule ${describeRule(rule)} (last matching rule wins)${note}`
          : `ask: the ${source} rule ${describeRule(rule)} matches, but ${JSON.stringify(pattern)} could not be judged before running, and only a rule for "(unresolved) ..." can allow that${note}`;
      return { action, rule, source, layer, index, sentence };
    }
  }
  return { action: "ask", sentence: `ask: no rule matches (the default)${note}` };
}

/** A rule the way it would be written in a config file: `edit "*.env": "deny"`. */
export function describeRule(rule: Rule): string {
  if (rule.written === "v2")
    return `{ action: ${JSON.stringify(v2Name(rule.permission))}, resource: ${JSON.stringify(rule.pattern)}, effect: ${JSON.stringify(rule.action)} }`;
  return `${rule.permission} ${JSON.stringify(rule.pattern)}: ${JSON.stringify(rule.action)}`;
}
