/**
 * The matcher and the evaluator checked against reference models written differently: a memoised recursive
 * glob matcher, and OpenCode's own regex construction. Inputs come from a tiny alphabet so that patterns
 * actually match, partially match and fail in every interesting way.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../../src/tools/permission/evaluate.js";
import type { Action, Rule } from "../../../src/tools/permission/types.js";
import { matchWildcard } from "../../../src/tools/permission/wildcard.js";

const RUNS = { numRuns: 10_000 };

/** Recursive definition of the dialect, read straight off the spec. */
function referenceMatch(str: string, pattern: string): boolean {
  const s = Array.from(str.replaceAll("\\", "/"));
  const p = Array.from(pattern.replaceAll("\\", "/"));
  const full = (pe: number) => {
    const memo = new Map<string, boolean>();
    const go = (i: number, j: number): boolean => {
      const key = `${i},${j}`;
      const known = memo.get(key);
      if (known !== undefined) return known;
      let result: boolean;
      if (j === pe) result = i === s.length;
      else if (p[j] === "*") result = go(i, j + 1) || (i < s.length && go(i + 1, j));
      else result = i < s.length && (p[j] === "?" || p[j] === s[i]) && go(i + 1, j + 1);
      memo.set(key, result);
      return result;
    };
    return go(0, 0);
  };
  // "P *" also matches whatever "P" matches.
  const optionalTail = p.length >= 2 && p[p.length - 2] === " " && p[p.length - 1] === "*";
  return full(p.length) || (optionalTail && full(p.length - 2));
}

/** OpenCode's construction (src/util/wildcard.ts, v1.2.25), restated. */
function regexMatch(str: string, pattern: string): boolean {
  let escaped = pattern
    .replaceAll("\\", "/")
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  if (escaped.endsWith(" .*")) escaped = `${escaped.slice(0, -3)}( .*)?`;
  return new RegExp(`^${escaped}$`, "s").test(str.replaceAll("\\", "/"));
}

/** Evaluation by definition: scan the concatenation from the end. */
function referenceEvaluate(permission: string, pattern: string, rulesets: Rule[][]): Action {
  const all = rulesets.flat().reverse();
  for (const rule of all) {
    if (referenceMatch(permission, rule.permission) && referenceMatch(pattern, rule.pattern)) return rule.action;
  }
  return "ask";
}

const textChars = fc.constantFrom("a", "b", " ", "/", "\\", ".", "\n", "*", "?");
const globChars = fc.constantFrom("a", "b", " ", "/", "\\", ".", "*", "*", "?", "(", "$");
const text = fc.string({ unit: textChars, maxLength: 7 });
const glob = fc.oneof(
  fc.string({ unit: globChars, maxLength: 6 }),
  // Patterns ending in " *" deserve more than their chance share.
  fc.string({ unit: globChars, maxLength: 4 }).map((head) => `${head} *`),
);
const permissionName = fc.string({ unit: fc.constantFrom("e", "d", "*", "?"), maxLength: 3 });
const action = fc.constantFrom<Action>("allow", "ask", "deny");
const rule = fc.record({ permission: permissionName, pattern: glob, action });
const ruleset = fc.array(rule, { maxLength: 6 });

describe("matchWildcard against reference models", () => {
  it("agrees with the recursive definition", () => {
    fc.assert(
      fc.property(text, glob, (str, pattern) => {
        expect(matchWildcard(str, pattern)).toBe(referenceMatch(str, pattern));
      }),
      RUNS,
    );
  });

  it("agrees with OpenCode's regex construction", () => {
    fc.assert(
      fc.property(text, glob, (str, pattern) => {
        expect(matchWildcard(str, pattern)).toBe(regexMatch(str, pattern));
      }),
      RUNS,
    );
  });

  it("matches every string against itself when it has no wildcards", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", " ", "/", ".", "(", "$", "\n"), maxLength: 8 }), (str) => {
        expect(matchWildcard(str, str)).toBe(true);
      }),
      RUNS,
    );
  });
});

describe("evaluate against a reference model", () => {
  it("returns the action of the last matching rule across all rulesets, or ask", () => {
    fc.assert(
      fc.property(fc.array(ruleset, { maxLength: 3 }), permissionName, text, (rulesets, permission, pattern) => {
        const result = evaluate(permission, pattern, ...rulesets);
        expect(result.action).toBe(referenceEvaluate(permission, pattern, rulesets));
        if (result.rule) {
          // The deciding rule is the LAST one in the flattened list that matches.
          const flat = rulesets.flat();
          const position = flat.lastIndexOf(result.rule);
          expect(position).toBeGreaterThanOrEqual(0);
          for (const later of flat.slice(position + 1)) {
            expect(referenceMatch(permission, later.permission) && referenceMatch(pattern, later.pattern)).toBe(false);
          }
        } else {
          expect(result.action).toBe("ask");
        }
      }),
      RUNS,
    );
  });

  it("lets an appended catch-all decide everything", () => {
    fc.assert(
      fc.property(ruleset, action, permissionName, text, (rules, last, permission, pattern) => {
        const all: Rule[] = [...rules, { permission: "*", pattern: "*", action: last }];
        expect(evaluate(permission, pattern, all).action).toBe(last);
      }),
      RUNS,
    );
  });
});
