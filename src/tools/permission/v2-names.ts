/**
 * OpenCode V2 renamed three tools (`bash` is `shell`, `task` is `subagent`, `apply_patch` is `patch`). The engine
 * keeps one permission per capability, so a rule written with either name covers the tool under either name.
 */

/** V2's action names and the permission the engine asks under for each. */
const ENGINE_NAME_OF_V2: Readonly<Record<string, string>> = { shell: "bash", subagent: "task", patch: "edit" };

/** The reverse, for showing an engine permission in V2's words (`patch` is not reversed: V2 too asks `edit`). */
const V2_NAME_OF_ENGINE: Readonly<Record<string, string>> = { bash: "shell", task: "subagent" };

/** The permission the engine asks under for a name written in a rule (V2 names become V1's; others stay). */
export function engineName(name: string): string {
  return Object.hasOwn(ENGINE_NAME_OF_V2, name) ? ENGINE_NAME_OF_V2[name]! : name;
}

/** An engine permission the way a V2 config spells it. */
export function v2Name(permission: string): string {
  return Object.hasOwn(V2_NAME_OF_ENGINE, permission) ? V2_NAME_OF_ENGINE[permission]! : permission;
}
