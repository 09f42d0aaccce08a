/**
 * Which rules from an untrusted workspace would loosen protection, so they can be held back until the
 * person trusts the workspace.
 *
 * How "loosens" is decided. A rule (permission glob P, pattern glob Q, action a) loosens over a baseline
 * ruleset (the built-in rules of the agent it applies to) when some call it matches would get a looser
 * answer from it than from the baseline alone; looser means allow < ask < deny. Concretely the rule
 * loosens iff a baseline rule B (or the implicit "ask" under every ruleset) with an action tighter than a
 * could match a call that the rule also matches (P and B's permission glob share a string, and so do Q and
 * B's pattern), unless a later baseline rule with an action no tighter than a certainly covers every such
 * call (its globs are `*`, the same text as the rule's, or match the rule's glob when that is literal). A `deny` never loosens.
 *
 * This errs on the safe side: a rule that only looks like it could loosen (its globs overlap a stricter
 * default whose overlap a later default already gives away) is held back too. Its consequence is the
 * property tests check: with only the kept rules after the baseline, no call is answered more loosely than
 * by the baseline alone, because every kept rule is at least as strict as the baseline wherever it matches.
 */
import type { Action, Rule, Ruleset } from "./types.js";
import { matchWildcard } from "./wildcard.js";

const RANK: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };

/** The rules that keep protection at least as strict as `baseline`, and the ones that would loosen it. */
export function splitLoosening(rules: readonly Rule[], baseline: readonly Rule[]): { kept: Ruleset; loosening: Ruleset } {
  const kept: Ruleset = [];
  const loosening: Ruleset = [];
  for (const rule of rules) (loosens(rule, baseline) ? loosening : kept).push(rule);
  return { kept, loosening };
}

export function loosens(rule: Rule, baseline: readonly Rule[]): boolean {
  if (rule.action === "deny") return false;
  // Nothing matched answers "ask": a rule of its own, under everything else.
  const layered: Rule[] = [{ permission: "*", pattern: "*", action: "ask" }, ...baseline];
  for (let index = 0; index < layered.length; index++) {
    const base = layered[index]!;
    if (RANK[base.action] <= RANK[rule.action]) continue;
    if (!globsIntersect(rule.permission, base.permission) || !globsIntersect(rule.pattern, base.pattern)) continue;
    const overridden = layered
      .slice(index + 1)
      .some(
        (later) =>
          RANK[later.action] <= RANK[rule.action] && covers(later.permission, rule.permission) && covers(later.pattern, rule.pattern),
      );
    if (!overridden) return true;
  }
  return false;
}

/** Certainly matches everything `inner` matches: `*`, the very same glob, or a literal `inner` it matches. */
function covers(outer: string, inner: string): boolean {
  if (outer === "*" || outer === "**" || outer === inner) return true;
  return !/[*?]/.test(inner) && matchWildcard(inner, outer);
}

/**
 * Whether two globs of src/tools/permission/wildcard.ts (`*`, `?`, literal rest, `\` as `/`, a final
 * " *" also matching without it) can match one same string. A walk over pairs of positions, so at most
 * (|a| + 1) x (|b| + 1) states.
 */
export function globsIntersect(a: string, b: string): boolean {
  for (const left of alternatives(a)) for (const right of alternatives(b)) if (intersect(left, right)) return true;
  return false;
}

function alternatives(glob: string): string[][] {
  const chars = Array.from(glob.replaceAll("\\", "/"));
  const whole = chars.join("");
  return whole.endsWith(" *") ? [chars, chars.slice(0, -2)] : [chars];
}

function intersect(a: readonly string[], b: readonly string[]): boolean {
  const seen = new Set<number>();
  const width = b.length + 1;
  const stack: Array<[number, number]> = [[0, 0]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const x = a[i];
    const y = b[j];
    // A star may stop matching here.
    if (x === "*") stack.push([i + 1, j]);
    if (y === "*") stack.push([i, j + 1]);
    if (x === undefined || y === undefined || (x === "*" && y === "*")) continue;
    // Both take one more character of the common string: possible unless two different literals.
    const wild = (c: string) => c === "*" || c === "?";
    if (!wild(x) && !wild(y) && x !== y) continue;
    stack.push([x === "*" ? i : i + 1, y === "*" ? j : j + 1]);
  }
  return false;
}
