/**
 * Patterns that stand for something a tool could not judge before running it: a bash command whose name is
 * made at run time (`$CMD x`, `$(echo rm) x`), text handed to a shell or an interpreter (`| sh`,
 * `python3 -c '...'`), a path built from a variable. They read `(unresolved) <the text as written>`.
 *
 * A rule written for everything (`"*": "allow"`) was written about commands and places someone could see;
 * it does not vouch for one nobody can see yet, which may be exactly what another rule denies. So such a
 * pattern is allowed only by a rule that names it (`"(unresolved) *": "allow"`); any other allow asks.
 * Deny and ask rules apply to it as to any pattern.
 */
export const UNRESOLVED = "(unresolved) ";

const isUnresolved = (pattern: string): boolean => pattern.startsWith(UNRESOLVED);

/**
 * The same guard for a webfetch of this machine or a private network (`(internal) http://127.0.0.1:3000/`):
 * "webfetch anything" was written about the web, not about the services that trust the local machine.
 */
export const INTERNAL = "(internal) ";

const GUARDED = [UNRESOLVED, INTERNAL];

/** Whether an allow by `rulePattern` may stand for `pattern`. */
export function allowCovers(rulePattern: string, pattern: string): boolean {
  const guard = GUARDED.find((prefix) => pattern.startsWith(prefix));
  return guard === undefined || rulePattern.startsWith(guard.trimEnd());
}
