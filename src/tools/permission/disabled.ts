/**
 * Which tools to leave out of the model's tool list altogether. A tool whose every call would be denied only
 * wastes the model's turns, so it is hidden; a tool denied for some patterns but not others stays, and the
 * engine refuses the individual calls.
 */
import type { Ruleset } from "./types.js";
import { engineName } from "./v2-names.js";
import { matchWildcard } from "./wildcard.js";

/**
 * Tools that change files all answer to the one "edit" permission, so a single `edit: deny` covers every way
 * of writing. OpenCode's list leaves out apply_patch, which let a model edit files that config said it may
 * not; we include it.
 */
const EDITING_TOOLS: ReadonlySet<string> = new Set(["edit", "write", "multiedit", "apply_patch", "patch"]);

export function permissionKeyOf(toolId: string): string {
  return EDITING_TOOLS.has(toolId) ? "edit" : engineName(toolId);
}

/**
 * A tool is hidden iff the last rule that speaks about its permission is a blanket `"*": "deny"`. Only the
 * last one counts: `{"edit": "deny"}` followed by `{"edit": {"docs/*": "allow"}}` keeps the tool, because
 * some calls can still succeed.
 */
export function disabledTools(toolIds: readonly string[], ruleset: Ruleset): Set<string> {
  const hidden = new Set<string>();
  for (const id of toolIds) {
    const key = permissionKeyOf(id);
    const last = ruleset.findLast((rule) => matchWildcard(key, rule.permission));
    if (last && last.pattern === "*" && last.action === "deny") hidden.add(id);
  }
  return hidden;
}
