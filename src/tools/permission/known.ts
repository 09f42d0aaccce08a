/**
 * The permissions something can ask for: OpenCode's permission keys, plus each registered tool's own (a
 * custom or MCP tool answers to its id). A rule for any other name never takes effect, so "explain" says
 * such a name is unknown rather than report what the `*` rules would give it.
 */
import { permissionKeyOf } from "./disabled.js";
import { matchWildcard } from "./wildcard.js";

export const BUILTIN_PERMISSIONS: readonly string[] = [
  "read",
  "edit",
  "glob",
  "grep",
  "list",
  "bash",
  "task",
  "external_directory",
  "todowrite",
  "todoread",
  "question",
  "webfetch",
  "websearch",
  "codesearch",
  "lsp",
  "skill",
  "doom_loop",
];

/** Tools that never ask: the stand-in a malformed call is routed to. */
const NEVER_ASK = new Set(["invalid"]);

/** The built-in permissions, then the registered tools' own, each once. */
export function knownPermissions(toolIds: readonly string[]): string[] {
  return [...new Set([...BUILTIN_PERMISSIONS, ...toolIds.filter((id) => !NEVER_ASK.has(id)).map(permissionKeyOf)])];
}

/** Whether a rule's permission (which may hold `*` or `?`) names at least one known permission. */
export function isKnownPermission(permission: string, known: readonly string[]): boolean {
  return /[*?]/.test(permission) ? known.some((name) => matchWildcard(name, permission)) : known.includes(permission);
}
