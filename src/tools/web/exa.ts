/**
 * Exa's hosted MCP endpoint as websearch and codesearch call it: one JSON-RPC `tools/call` POST, answered
 * as server-sent events (or plain JSON) whose first result's first text part is the answer. Bounded by a
 * timeout so an unreachable endpoint ends in an error, never a hang.
 */
import { readLimited, WebAccessError, type WebAccess } from "../ports/web-access.js";

const EXA_URL = "https://mcp.exa.ai/mcp";

export interface ExaCall {
  tool: string;
  arguments: Record<string, unknown>;
  timeoutMs: number;
  signal: AbortSignal;
  /** How the calling tool names its errors: "Search", "Code search". */
  label: string;
}

interface RpcMessage {
  result?: { content?: Array<{ type?: string; text?: string }>; isError?: boolean };
  error?: { message?: string };
}

function messagesOf(body: string): RpcMessage[] {
  const trimmed = body.trim();
  if (trimmed.startsWith("{")) return [JSON.parse(trimmed) as RpcMessage];
  const messages: RpcMessage[] = [];
  for (const line of body.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (!data) continue;
    try {
      messages.push(JSON.parse(data) as RpcMessage);
    } catch {
      // A keep-alive or a partial event: not an answer.
    }
  }
  return messages;
}

/** The first text the endpoint answered with; undefined when it found nothing. */
export async function callExa(web: WebAccess, call: ExaCall): Promise<string | undefined> {
  const endpoint = web.exaUrl ?? EXA_URL;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new Error(`${call.label} request timed out`)), call.timeoutMs);
  const signal = AbortSignal.any([call.signal, timer.signal]);
  try {
    const { response } = await web.fetch({
      url: endpoint,
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: call.tool, arguments: call.arguments } }),
      signal,
    });
    const text = new TextDecoder().decode(await readLimited(response));
    if (!response.ok) throw new Error(`${call.label} error (${response.status}): ${text}`);
    for (const message of messagesOf(text)) {
      if (message.error) throw new Error(`${call.label} error: ${message.error.message ?? JSON.stringify(message.error)}`);
      const first = message.result?.content?.find((part) => typeof part.text === "string");
      if (first?.text) return first.text;
    }
    return undefined;
  } catch (error) {
    if (timer.signal.aborted && !call.signal.aborted) throw timer.signal.reason;
    if (error instanceof WebAccessError)
      throw new Error(`${call.label} service at ${new URL(endpoint).host} is unreachable: ${error.message}`);
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}
