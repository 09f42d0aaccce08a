/**
 * An agent as OpenCode defines one: built in (build, plan, general, explore and the hidden compaction,
 * title and summary), from `agent` in opencode.json, or from a markdown file in `.opencode/agent/`.
 */
import type { Ruleset } from "../../tools/permission/types.js";
import type { ModelRef } from "../record/message.js";

export interface Agent {
  name: string;
  description?: string;
  /** primary: chosen by the person (Tab); subagent: started by `task`; all: both. */
  mode: "primary" | "subagent" | "all";
  builtIn: boolean;
  /** Not offered in pickers (compaction, title, summary). */
  hidden: boolean;
  /** Replaces the provider's default system prompt when set. */
  prompt?: string;
  model?: ModelRef;
  temperature?: number;
  topP?: number;
  /** Most model steps in one run; unlimited when absent. */
  steps?: number;
  /** Every rule for this agent in evaluation order (defaults, its own, user config, agent config). */
  permission: Ruleset;
  /**
   * The workspace's rules for this agent that would loosen its built-in ones, held back (not in
   * `permission`) until the person trusts the workspace; absent when there are none.
   */
  ignoredRules?: Ruleset;
  /** `#RRGGBB` or a theme color name (primary, secondary, accent, success, warning, error, info). */
  color?: string;
  /** The model variant to use (a reasoning-effort preset), when the model has variants. */
  variant?: string;
  /** Provider options passed through to the model call. */
  options: Record<string, unknown>;
}
