/**
 * One MCP tool as a tool of the registry: its JSON Schema goes to the model (through zod's reading of it,
 * which also validates the arguments; a schema zod cannot read is passed on unvalidated and left to the
 * server), the permission asked is the tool's id, and the result's text parts joined become the output,
 * truncated like any tool's by `define`.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { define, type FilePart, type Info } from "../../../tools/tool.js";
import { MAX_BYTES, MAX_LINES } from "../../../tools/truncation/constants.js";
import { MAX_RESPONSE_BYTES } from "../../../tools/ports/web-access.js";

/**
 * A server's error text within the output limits: outputs are truncated by `define`, errors are not, and
 * a server may answer with a megabyte of stack trace that would otherwise go to the model on every turn.
 */
function boundedError(text: string): string {
  const lines = text.split("\n");
  let kept = lines.slice(0, MAX_LINES).join("\n");
  const encoder = new TextEncoder();
  if (encoder.encode(kept).length > MAX_BYTES) {
    // Cut by characters to about the byte limit (UTF-8 is at most 3 bytes per UTF-16 unit), then exactly.
    kept = kept.slice(0, MAX_BYTES);
    while (encoder.encode(kept).length > MAX_BYTES) kept = kept.slice(0, Math.floor(kept.length * 0.9));
  }
  if (kept.length === text.length) return text;
  return `${kept}\n… (the server's error was cut: ${text.length - kept.length} more characters not shown)`;
}

function parametersOf(schema: McpTool["inputSchema"]): z.ZodType {
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  const objectSchema = { ...rest, type: "object" };
  try {
    return z.fromJSONSchema(objectSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.looseObject({}).meta({
      properties: (rest.properties as object | undefined) ?? {},
      ...(Array.isArray(rest.required) ? { required: rest.required } : {}),
    });
  }
}

export interface McpToolSource {
  server: string;
  client: Client;
  callTimeoutMs: number;
  /** Aborted when the server dies, so a call in flight ends at once instead of waiting for its timeout. */
  lost(): AbortSignal;
}

export function mcpTool(id: string, tool: McpTool, source: McpToolSource): Info {
  const parameters = parametersOf(tool.inputSchema);
  return define(id, {
    description: tool.description ?? "",
    parameters,
    async execute(args, ctx) {
      await ctx.ask({ permission: id, patterns: ["*"], always: ["*"], metadata: {} });
      const lost = source.lost();
      let result;
      try {
        result = await source.client.callTool({ name: tool.name, arguments: args as Record<string, unknown> }, undefined, {
          signal: AbortSignal.any([ctx.abort, lost]),
          timeout: source.callTimeoutMs,
          resetTimeoutOnProgress: true,
        });
      } catch (error) {
        if (lost.aborted && !ctx.abort.aborted) throw lost.reason;
        throw error;
      }
      const content = Array.isArray(result.content) ? result.content : [];
      const texts: string[] = [];
      const attachments: FilePart[] = [];
      for (const [index, part] of content.entries()) {
        if (part.type === "text") texts.push(part.text);
        else if ((part.type === "image" || part.type === "audio") && (part.data.length * 3) / 4 > MAX_RESPONSE_BYTES) {
          // As webfetch's bodies: a bigger one would sit in the record and go to the model on every turn.
          texts.push(`(${part.type} ${index + 1} (${part.mimeType}) left out: it is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB)`);
        } else if (part.type === "image" || part.type === "audio") {
          attachments.push({
            id: `${ctx.callID ?? id}-${index}`,
            sessionID: ctx.sessionID,
            messageID: ctx.messageID,
            type: "file",
            mime: part.mimeType,
            url: `data:${part.mimeType};base64,${part.data}`,
          });
        } else if (part.type === "resource" && "text" in part.resource) texts.push(part.resource.text);
      }
      const output = texts.join("\n\n");
      if (result.isError)
        throw new Error(
          output ? boundedError(output) : `the MCP tool ${tool.name} of ${source.server} reported an error without a message`,
        );
      return { title: "", metadata: {}, output, ...(attachments.length ? { attachments } : {}) };
    },
  });
}
