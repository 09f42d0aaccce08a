/**
 * How deep subagents may nest: OpenCode V2's `experimental.subagent_depth` (default 1: a subagent starts no
 * subagent of its own). A V1 config keeps V1's behaviour (no limit beyond the agents' task rules) unless it
 * sets the key; a V2 config gets V2's default.
 */
import { toolNamesOf } from "./tool-names.js";
import type { SessionRecord } from "../record/session-record.js";
import { SubagentDepthSchema, type WorkspaceConfig } from "./workspace-config.js";

const V2_DEFAULT_SUBAGENT_DEPTH = 1;

/** The limit in force, or undefined for none. */
function subagentDepthLimit(config: WorkspaceConfig): number | undefined {
  const set = SubagentDepthSchema.safeParse((config.experimental as { subagent_depth?: unknown } | undefined)?.subagent_depth);
  if (set.success) return set.data;
  return toolNamesOf(config) === "v2" ? V2_DEFAULT_SUBAGENT_DEPTH : undefined;
}

/** How many subagent levels lie between `root` and the session `id` (0 for the root itself). */
function depthOf(root: SessionRecord, id: string, depth = 0): number | undefined {
  if (root.id === id) return depth;
  for (const child of root.children ?? []) {
    const found = depthOf(child, id, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Throws when a session at `root`…`id` may not start another subagent. */
export function assertSubagentDepth(config: WorkspaceConfig, root: SessionRecord, id: string): void {
  const limit = subagentDepthLimit(config);
  const depth = depthOf(root, id) ?? 0;
  if (limit !== undefined && depth >= limit) {
    throw new Error(
      `Subagent depth limit reached (${limit}): this session is a subagent ${depth} level${depth === 1 ? "" : "s"} deep and may not start another. Do the work yourself, or the person can raise "experimental.subagent_depth" in opencode.json.`,
    );
  }
}
