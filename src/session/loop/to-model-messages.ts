/**
 * A session's messages as the model is sent them, the way OpenCode replays history: each assistant
 * message's text, reasoning and tool calls, then one result for every call (Anthropic needs a result
 * for each tool_use), and everything before the last compaction summary dropped.
 */
import type { ModelMessage, ToolResultPart } from "ai";
import type { ToolCall } from "../record/session-record.js";
import type { AssistantMessage, FilePart, Message, UserMessage } from "../record/message.js";

export const CLEARED_OUTPUT = "[Old tool result content cleared]";
export const INTERRUPTED_OUTPUT = "[Tool execution was interrupted]";
/** What the model reads where a compaction request stands (OpenCode's wording). */
export const COMPACTION_QUESTION = "What did we do so far?";

export interface ReplayOptions {
  /** The model takes images and files in user messages; when not, they are named in text instead. */
  attachments: boolean;
}

type ToolResultOutput = ToolResultPart["output"];
type UserContent = Extract<ModelMessage, { role: "user" }>["content"];
type AssistantContent = Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string>;
type ToolContent = Extract<ModelMessage, { role: "tool" }>["content"];

/** The messages the model still sees: from the request that produced the last finished summary on. */
export function activeMessages(messages: readonly Message[]): readonly Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant" || !message.summary || message.error || message.time.completed === undefined) continue;
    const request = messages.findIndex((m) => m.id === message.parentID);
    return messages.slice(request >= 0 ? request : i);
  }
  return messages;
}

export function toModelMessages(messages: readonly Message[], calls: readonly ToolCall[], options: ReplayOptions): ModelMessage[] {
  const byID = new Map(calls.map((call) => [call.id, call]));
  const result: ModelMessage[] = [];
  for (const message of activeMessages(messages)) {
    if (message.role === "user") {
      const content = userContent(message, options);
      if (content.length > 0) result.push({ role: "user", content });
    } else {
      result.push(...assistantMessages(message, byID));
    }
  }
  return result;
}

function userContent(message: UserMessage, options: ReplayOptions): Exclude<UserContent, string> {
  const content: Exclude<UserContent, string> = [];
  for (const part of message.parts) {
    if (part.type === "text" && part.text !== "") content.push({ type: "text", text: part.text });
    else if (part.type === "compaction") content.push({ type: "text", text: COMPACTION_QUESTION });
    else if (part.type === "file") {
      const file = fileContent(part, options);
      if (file) content.push(file);
    }
  }
  return content;
}

function fileContent(part: FilePart, options: ReplayOptions): Exclude<UserContent, string>[number] | undefined {
  const data = parseDataUrl(part.url);
  // Text files were put into the message as text when attached; a workspace path alone says nothing.
  if (!data) return undefined;
  const name = part.filename ?? "a file";
  if (!options.attachments) return { type: "text", text: `[Attached ${name} (${part.mime}): this model does not take attachments.]` };
  if (part.mime.startsWith("image/")) return { type: "image", image: data, mediaType: part.mime };
  return { type: "file", data, mediaType: part.mime, ...(part.filename ? { filename: part.filename } : {}) };
}

/** The base64 payload of a data: URL. */
function parseDataUrl(url: string): string | undefined {
  const match = /^data:[^,]*;base64,(.*)$/s.exec(url);
  return match?.[1];
}

function assistantMessages(message: AssistantMessage, calls: Map<string, ToolCall>): ModelMessage[] {
  const content: AssistantContent = [];
  const results: ToolContent = [];
  for (const part of message.parts) {
    if (part.type === "text" && part.text !== "") content.push({ type: "text", text: part.text });
    else if (part.type === "reasoning" && part.text !== "") content.push({ type: "reasoning", text: part.text });
    else if (part.type === "tool") {
      const call = calls.get(part.callID);
      content.push({ type: "tool-call", toolCallId: part.providerCallID, toolName: part.tool, input: call?.input ?? {} });
      results.push({ type: "tool-result", toolCallId: part.providerCallID, toolName: part.tool, output: toolOutput(call) });
    }
  }
  // An aborted or failed step that said nothing leaves nothing to replay.
  if (content.length === 0) return [];
  const replay: ModelMessage[] = [{ role: "assistant", content }];
  if (results.length > 0) replay.push({ role: "tool", content: results });
  return replay;
}

function toolOutput(call: ToolCall | undefined): ToolResultOutput {
  if (!call) return { type: "error-text", value: INTERRUPTED_OUTPUT };
  switch (call.status) {
    case "completed":
      return { type: "text", value: call.time.compacted !== undefined ? CLEARED_OUTPUT : (call.output ?? "") };
    case "error":
      return { type: "error-text", value: call.error ?? "Error" };
    default:
      return { type: "error-text", value: INTERRUPTED_OUTPUT };
  }
}
