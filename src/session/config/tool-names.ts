/**
 * Which names the model is offered for the tools OpenCode V2 renamed: V1's `bash`, `task`, `apply_patch` or
 * V2's `shell`, `subagent`, `patch`. A model used to V2 calls the names it knows, so a V2 config (one with
 * V2's `permissions` list or `agents` section) gets V2's names unless `workbench.toolNames` says otherwise.
 */
import { z } from "zod";

export const ToolNamesSchema = z.enum(["v1", "v2"], { error: 'must be "v1" (bash, task, apply_patch) or "v2" (shell, subagent, patch)' });

export type ToolNames = z.infer<typeof ToolNamesSchema>;

/** The names a config asks for: `workbench.toolNames` when set, else "v2" for a V2-shaped file, else "v1". */
export function toolNamesOf(config: { permissions?: unknown; agents?: unknown; workbench?: unknown }): ToolNames {
  const explicit = ToolNamesSchema.safeParse((config.workbench as { toolNames?: unknown } | undefined)?.toolNames);
  if (explicit.success) return explicit.data;
  return config.permissions !== undefined || config.agents !== undefined ? "v2" : "v1";
}
