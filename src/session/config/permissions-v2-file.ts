/**
 * A V2 config's `permissions` list as Settings edits it, and "Always allow" answers saved into it. A file
 * keeps the shape its person chose: a V2 file gets V2 rules (`{action, resource, effect}`, in V2's names),
 * never a V1 `permission` map beside them, which would make the file one that both OpenCode lines misread.
 */
import { applyEdits, modify, parse, type ParseError } from "jsonc-parser";
import type { Runtime } from "../../runtime/types.js";
import { isAction } from "../../tools/permission/config.js";
import { v2Name } from "../../tools/permission/v2-names.js";
import type { V2Rule } from "../../tools/permission/v2.js";
import { configToWrite, type ConfigRule, type WorkspaceConfig } from "./workspace-config.js";

/** For the page, which may not import the tools layer's code: a rule's permission in V2's words. */
export { v2Name };

export type PermissionShape = "v1" | "v2";

/** V2 when the file has V2's `permissions` list, or no rules yet but V2's `agents` section. */
export function permissionShapeOf(config: WorkspaceConfig): PermissionShape {
  if (config.permissions !== undefined) return "v2";
  if (config.permission === undefined && config.agents !== undefined) return "v2";
  return "v1";
}

/** The list as Settings' rows: `permission` is the action as written, `pattern` the resource. */
export function v2RulesOf(config: WorkspaceConfig): ConfigRule[] {
  return (config.permissions ?? []).map((rule) => ({ permission: rule.action, pattern: rule.resource, action: rule.effect }));
}

/** Settings' rows as a V2 list, each checked, in order (V2 keeps order as written; nothing is grouped). */
function v2List(rules: readonly ConfigRule[]): V2Rule[] {
  return rules.map(({ permission, pattern, action }, index) => {
    if (permission.trim() === "" || pattern === "") {
      throw new Error(`rule ${index + 1} needs both an action (e.g. shell, edit, read or *) and a resource (* for every one)`);
    }
    if (!isAction(action)) throw new Error(`rule ${index + 1}: the effect must be "allow", "ask" or "deny", not ${JSON.stringify(action)}`);
    return { action: permission.trim(), resource: pattern, effect: action };
  });
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };

async function readObject(runtime: Runtime, path: string): Promise<string> {
  const text = await runtime.fs.readFile(path).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => "{}\n",
  );
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0 || typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${path} is not a valid JSON object, so its rules were not changed: fix the file (or remove it) and save again.`);
  }
  return text;
}

/** Replaces the file's `permissions` list with `rules`, leaving every other key and comment as it was. */
export async function saveV2Rules(runtime: Runtime, rules: readonly ConfigRule[]): Promise<string> {
  const list = v2List(rules);
  const path = await configToWrite(runtime);
  const text = await readObject(runtime, path);
  const next = applyEdits(text, modify(text, ["permissions"], list.length === 0 ? undefined : list, FORMAT));
  await runtime.fs.writeFile(path, next.endsWith("\n") ? next : `${next}\n`);
  return path;
}

/** Appends approvals to the end of the `permissions` list (where they win, as in the session), in V2's names. */
export async function appendV2Approvals(runtime: Runtime, approvals: Array<{ permission: string; pattern: string }>): Promise<string> {
  const path = await configToWrite(runtime);
  let text = await readObject(runtime, path);
  const current = parse(text, [], { allowTrailingComma: true }) as { permissions?: unknown };
  if (!Array.isArray(current.permissions)) text = applyEdits(text, modify(text, ["permissions"], [], FORMAT));
  for (const { permission, pattern } of approvals) {
    const rule: V2Rule = { action: v2Name(permission), resource: pattern, effect: "allow" };
    text = applyEdits(text, modify(text, ["permissions", -1], rule, { ...FORMAT, isArrayInsertion: true }));
  }
  await runtime.fs.writeFile(path, text.endsWith("\n") ? text : `${text}\n`);
  return path;
}
