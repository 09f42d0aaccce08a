import type { Context } from "../tool.js";
import type { SessionServices } from "./session-services.js";

/** The call's session services, or a clear error when the tool is run outside a conversation. */
export function sessionOf(ctx: Context, tool: string): SessionServices {
  if (!ctx.session)
    throw new Error(`The ${tool} tool works only inside a conversation with an agent: run it from the chat, not on its own.`);
  return ctx.session;
}
