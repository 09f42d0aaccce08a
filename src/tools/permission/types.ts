/** The permission model's data (OpenCode's PermissionNext shapes). */

export type Action = "allow" | "deny" | "ask";

/** Where a rule came from, so a decision can be explained. */
export type RuleSource = "default" | "agent" | "config" | "session" | "approval";

export interface Rule {
  permission: string;
  pattern: string;
  action: Action;
  source?: RuleSource;
  /** Set when the rule came from a V2 `permissions` list, so it is shown back in V2's words. */
  written?: "v2";
}

export type Ruleset = Rule[];

export type Reply = "once" | "always" | "reject";

export interface PermissionRequest {
  id: string;
  sessionID: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
  tool?: { messageID: string; callID: string };
}

/** What a tool passes to ctx.ask(). */
export type AskInput = Omit<PermissionRequest, "id" | "sessionID" | "tool">;
