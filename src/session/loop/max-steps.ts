/**
 * What the model is told on an agent's last allowed step (after OpenCode's max-steps prompt): tools are
 * still offered, but the model is asked to stop calling them and report instead.
 */
export const MAX_STEPS_NOTICE = [
  "CRITICAL - MAXIMUM STEPS REACHED",
  "",
  "This agent has used every step it is allowed for this request. Tools are disabled until next user input. Respond with text only.",
  "",
  "Do not call any tool. Instead, in plain text:",
  "- say that the step limit for this agent was reached;",
  "- summarise what has been done so far;",
  "- list what is left to do;",
  "- recommend what the person should do next.",
].join("\n");
