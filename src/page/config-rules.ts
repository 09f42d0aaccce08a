/** The workspace config's permission rules as the settings edit them, and "always" answers saved into it. */
import type { Runtime } from "../runtime/types.js";
import type { PermissionRequest } from "../tools/permission/types.js";
import {
  loadWorkspaceConfig,
  permissionRulesOf,
  saveApprovals,
  savePermissionRules,
  type ConfigRule,
} from "../session/config/workspace-config.js";

/** The config's own `permission` entries as the file holds them now (it may have changed since the session opened). */
export async function readConfigRules(runtime: Runtime): Promise<{ path?: string; rules: ConfigRule[] }> {
  const { config, path } = await loadWorkspaceConfig(runtime);
  return { path, rules: permissionRulesOf(config) };
}

/** Writes `rules` as the config's `permission` section; returns the file's path. */
export function writeConfigRules(runtime: Runtime, rules: readonly ConfigRule[]): Promise<string> {
  return savePermissionRules(runtime, rules);
}

/** Writes the patterns an "always" answer remembers into the config, so they outlive the session. */
export function saveAlwaysToConfig(runtime: Runtime, request: Pick<PermissionRequest, "permission" | "always">): Promise<string> {
  return saveApprovals(
    runtime,
    request.always.map((pattern) => ({ permission: request.permission, pattern })),
  );
}
