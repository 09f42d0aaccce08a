/** Agents: the built-ins, opencode.json's `agent` entries and markdown agents, merged as OpenCode does. */
export {
  defaultAgent,
  loadAgents,
  primaryAgents,
  subagents,
} from "./load.js";
export type { Agent } from "./types.js";
