/**
 * The agents every workspace has, as OpenCode ships them: two primaries the person switches between
 * (build, plan), two subagents the task tool starts (general, explore) and three hidden ones the loop
 * uses itself (compaction, title, summary). Their permission rules live in src/tools/permission/agents.ts;
 * their prompts, where they have one, beside this file. build and plan have none: they use the model
 * family's base prompt (src/session/agent/system-prompt.ts), and plan's limits reach the model as a reminder.
 */
import type { AgentName } from "../../tools/permission/agents.js";
import type { AgentMode } from "../config/agent-entries.js";
import compactionPrompt from "./prompts/compaction.txt?raw";
import explorePrompt from "./prompts/explore.txt?raw";
import planReminderText from "./prompts/plan-reminder.txt?raw";
import summaryPrompt from "./prompts/summary.txt?raw";
import titlePrompt from "./prompts/title.txt?raw";

export interface BuiltInAgent {
  name: AgentName;
  description?: string;
  mode: AgentMode;
  hidden: boolean;
  prompt?: string;
  temperature?: number;
}

export const BUILT_IN_AGENTS: readonly BuiltInAgent[] = [
  {
    name: "build",
    description: "The default agent: reads, edits and runs commands to get the task done, asking where the rules say to.",
    mode: "primary",
    hidden: false,
  },
  {
    name: "plan",
    description: "Looks and plans without changing the project: edits are denied except its own plan files.",
    mode: "primary",
    hidden: false,
  },
  {
    name: "general",
    description:
      "A general-purpose agent for researching complex questions and carrying out multi-step tasks. Use it to run several units of work in parallel.",
    mode: "subagent",
    hidden: false,
  },
  {
    name: "explore",
    description:
      'Fast, read-only exploration of a codebase: finds files by pattern, searches code for keywords, and answers questions about how it works. Say how thorough to be: "quick", "medium" or "very thorough".',
    mode: "subagent",
    hidden: false,
    prompt: explorePrompt.trim(),
  },
  { name: "compaction", mode: "primary", hidden: true, prompt: compactionPrompt.trim() },
  { name: "title", mode: "primary", hidden: true, prompt: titlePrompt.trim(), temperature: 0.5 },
  { name: "summary", mode: "primary", hidden: true, prompt: summaryPrompt.trim() },
];

/** What the loop adds as a synthetic user reminder while the plan agent is in charge (OpenCode does the same). */
export const PLAN_REMINDER = planReminderText.trim();
