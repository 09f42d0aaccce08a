/** The workspace config's permission rules as the settings edit them, and "always" answers saved into it. */
import type { Runtime } from "../runtime/types.js";
import type { PermissionRequest } from "../tools/permission/types.js";
import {
  appendV2Approvals,
  permissionShapeOf,
  saveV2Rules,
  v2RulesOf,
  type PermissionShape,
} from "../session/config/permissions-v2-file.js";
import {
  loadWorkspaceConfig,
  permissionRulesOf,
  saveApprovals,
  savePermissionRules,
  type ConfigRule,
} from "../session/config/workspace-config.js";

/**
 * The config's own rules as the file holds them now (it may have changed since the session opened), and
 * the shape they are written in: V1's `permission` map or V2's `permissions` list, in that file's own words.
 */
export async function readConfigRules(runtime: Runtime): Promise<{ path?: string; rules: ConfigRule[]; shape: PermissionShape }> {
  const { config, path } = await loadWorkspaceConfig(runtime);
  const shape = permissionShapeOf(config);
  return { path, rules: shape === "v2" ? v2RulesOf(config) : permissionRulesOf(config), shape };
}

/** Writes `rules` in the shape the file already uses; returns the file's path. */
export async function writeConfigRules(runtime: Runtime, rules: readonly ConfigRule[]): Promise<string> {
  return (await shapeOnDisk(runtime)) === "v2" ? saveV2Rules(runtime, rules) : savePermissionRules(runtime, rules);
}

/**
 * The shape the file has now. A file that does not load (broken JSON) is left to the V1 writer, which
 * refuses to touch it and says to fix or remove it, as it always has.
 */
async function shapeOnDisk(runtime: Runtime): Promise<PermissionShape> {
  try {
    return permissionShapeOf((await loadWorkspaceConfig(runtime)).config);
  } catch {
    return "v1";
  }
}

/** Writes the patterns an "always" answer remembers into the config, in its shape, so they outlive the session. */
export async function saveAlwaysToConfig(runtime: Runtime, request: Pick<PermissionRequest, "permission" | "always">): Promise<string> {
  const approvals = request.always.map((pattern) => ({ permission: request.permission, pattern }));
  return (await shapeOnDisk(runtime)) === "v2" ? appendV2Approvals(runtime, approvals) : saveApprovals(runtime, approvals);
}
