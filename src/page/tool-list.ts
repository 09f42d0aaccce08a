/** The session's tools as the palette offers them: each with its description and zod parameters. */
import type { z } from "zod";
import type { ToolSession } from "../session/host/tool-session.js";

export interface ToolEntry {
  id: string;
  description: string;
  parameters: z.ZodType;
}

/** Every registered tool in the registry's order, without `invalid` (the model's, never a person's). */
export async function listTools(session: ToolSession): Promise<ToolEntry[]> {
  const agent = session.agent;
  const all = session.registry.all().filter((tool) => tool.id !== "invalid");
  return Promise.all(
    all.map(async (tool) => {
      const initialized = await tool.init({ agent });
      return { id: tool.id, description: initialized.description, parameters: initialized.parameters };
    }),
  );
}
