/** Agents: the built-ins, opencode.json's `agent` entries and markdown agents, merged as OpenCode does. */
export { PLAN_REMINDER } from "./builtins.js";
export { AGENT_MODES, AgentConfigError, parseAgentEntry, parseModelRef, type AgentEntry, type AgentMode } from "../config/agent-entries.js";
export { FrontmatterError, parseFrontmatter, type Frontmatter, type FrontmatterMap, type FrontmatterValue } from "./frontmatter.js";
export {
  defaultAgent,
  loadAgents,
  primaryAgents,
  subagents,
  type AgentProblem,
  type LoadAgentsOptions,
  type LoadedAgents,
} from "./load.js";
export type { Agent } from "./types.js";
