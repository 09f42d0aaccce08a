/** The session's pending permission prompts and their answers, as the page shows and sends them. */
import type { PermissionRequest } from "../tools/permission/types.js";
import type { ToolSession } from "../session/host/tool-session.js";

export type PermissionReply = "once" | "always" | "reject";

export function pendingPrompts(session: ToolSession): PermissionRequest[] {
  return session.permissions.pending();
}

/** An empty message is no message: the caller is told only the rejection. */
export function replyToPrompt(session: ToolSession, requestID: string, reply: PermissionReply, message?: string): boolean {
  return session.permissions.reply(requestID, reply, message === "" ? undefined : message);
}

/** Calls `listener` whenever a prompt is asked or answered. */
export function onPromptsChanged(session: ToolSession, listener: () => void): () => void {
  const offs = [session.bus.subscribe("permission.asked", listener), session.bus.subscribe("permission.replied", listener)];
  return () => offs.forEach((off) => off());
}
