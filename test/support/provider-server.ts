/**
 * A local model provider for tests: a real HTTP server on 127.0.0.1 that answers the OpenAI
 * chat-completions, OpenAI Responses and Anthropic messages streaming protocols, so the real AI SDK
 * provider packages can be driven offline. Each test scripts the answers (a queue: a model step, an error
 * response, or a stream that hangs until the client aborts) and reads back every request it received.
 *
 * Streams are cut the way real providers cut them: text in several deltas, a tool call's id and name first
 * and then its arguments in fragments, usage at the end.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as its JSON; a string is sent as is (to script malformed arguments). */
  input: unknown;
  id?: string;
}

export interface ScriptedUsage {
  input: number;
  output: number;
  reasoning?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface ScriptedStep {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** The wire finish reason; by default tool calls when there are any, else the normal stop. */
  finish?: string;
}

export interface ScriptedError {
  status: number;
  /** A JSON body (an object) or raw text. */
  body: unknown;
  headers?: Record<string, string>;
}

export type ScriptedResponse =
  | { step: ScriptedStep }
  | { error: ScriptedError }
  /** Sends the stream's first event (and `text`, on OpenAI chat), then nothing, until the client goes away. */
  | { hang: true; text?: string }
  /** Accepts the request and sends nothing at all, not even the status line, until the client goes away. */
  | { silent: true }
  /** An Anthropic `event: error` in the middle of a 200 stream (how overload often arrives). */
  | { streamError: { type: string; message: string } };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined for bodiless requests). */
  body: unknown;
}

export interface ProviderServerOptions {
  /** Answer CORS: the allowed origin ("*" or one origin). Without it no CORS headers are sent. */
  corsOrigin?: string;
}

export interface ProviderServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Base URLs as the provider packages expect them (each ends before the endpoint path). */
  openaiBaseURL: string;
  anthropicBaseURL: string;
  enqueue(...responses: ScriptedResponse[]): void;
  /** Drops the responses nobody asked for (a run that stopped early); returns how many there were. */
  drain(): number;
  requests: RecordedRequest[];
  /** Hanging responses whose client went away. */
  aborted: number;
  /** Resolves once `count` requests have been received in total. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

type Protocol = "openai-chat" | "openai-responses" | "anthropic";

function protocolOf(path: string): Protocol | undefined {
  if (path.endsWith("/chat/completions")) return "openai-chat";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.endsWith("/messages")) return "anthropic";
  return undefined;
}

/** Cuts a string into pieces of at most `size` characters (at least two pieces when it is long enough). */
export function fragments(text: string, size = 7): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

const argumentsText = (call: ScriptedToolCall) => (typeof call.input === "string" ? call.input : JSON.stringify(call.input));
const usageOf = (step: ScriptedStep): ScriptedUsage => step.usage ?? { input: 10, output: 5 };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

class SseWriter {
  constructor(private readonly response: ServerResponse) {}
  data(value: unknown): void {
    this.response.write(`data: ${typeof value === "string" ? value : JSON.stringify(value)}\n\n`);
  }
  event(name: string, value: unknown): void {
    this.response.write(`event: ${name}\ndata: ${JSON.stringify(value)}\n\n`);
  }
}

function openaiChatStream(sse: SseWriter, step: ScriptedStep, model: string, includeUsage: boolean, id: number): void {
  const base = { id: `chatcmpl-${id}`, object: "chat.completion.chunk", created: 1_700_000_000, model };
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse.data({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  chunk({ role: "assistant", content: "" });
  for (const piece of fragments(step.reasoning ?? "")) chunk({ reasoning_content: piece });
  for (const piece of fragments(step.text ?? "")) chunk({ content: piece });
  (step.toolCalls ?? []).forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id ?? `call_${id}_${index}`, type: "function", function: { name: call.name, arguments: "" } }],
    });
    for (const piece of fragments(argumentsText(call))) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  chunk({}, step.finish ?? (step.toolCalls?.length ? "tool_calls" : "stop"));
  if (includeUsage) {
    const usage = usageOf(step);
    sse.data({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
        completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
      },
    });
  }
  sse.data("[DONE]");
}

function anthropicStream(sse: SseWriter, step: ScriptedStep, model: string, id: number): void {
  const usage = usageOf(step);
  sse.event("message_start", {
    type: "message_start",
    message: {
      id: `msg_${id}`,
      type: "message",
      role: "assistant",
      content: [],
      model,
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        output_tokens: 1,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
      },
    },
  });
  sse.event("ping", { type: "ping" });
  let index = 0;
  if (step.reasoning) {
    sse.event("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "thinking", thinking: "", signature: "" },
    });
    for (const piece of fragments(step.reasoning)) {
      sse.event("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } });
    }
    sse.event("content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: `sig-${id}` } });
    sse.event("content_block_stop", { type: "content_block_stop", index });
    index += 1;
  }
  if (step.text) {
    sse.event("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of fragments(step.text)) {
      sse.event("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    }
    sse.event("content_block_stop", { type: "content_block_stop", index });
    index += 1;
  }
  (step.toolCalls ?? []).forEach((call, callIndex) => {
    const block = { type: "tool_use", id: call.id ?? `toolu_${id}_${callIndex}`, name: call.name, input: {} };
    sse.event("content_block_start", { type: "content_block_start", index, content_block: block });
    sse.event("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } });
    for (const piece of fragments(argumentsText(call))) {
      sse.event("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    sse.event("content_block_stop", { type: "content_block_stop", index });
    index += 1;
  });
  sse.event("message_delta", {
    type: "message_delta",
    delta: { stop_reason: step.finish ?? (step.toolCalls?.length ? "tool_use" : "end_turn"), stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  sse.event("message_stop", { type: "message_stop" });
}

function openaiResponsesStream(sse: SseWriter, step: ScriptedStep, model: string, id: number): void {
  const usage = usageOf(step);
  const response = {
    id: `resp_${id}`,
    object: "response",
    created_at: 1_700_000_000,
    model,
    status: "in_progress",
    output: [] as unknown[],
  };
  let sequence = 0;
  const send = (type: string, value: Record<string, unknown>) => sse.event(type, { type, sequence_number: sequence++, ...value });
  send("response.created", { response });
  let outputIndex = 0;
  if (step.text) {
    const item = { id: `msg_${id}`, type: "message", status: "in_progress", role: "assistant", content: [] };
    send("response.output_item.added", { output_index: outputIndex, item });
    send("response.content_part.added", {
      item_id: item.id,
      output_index: outputIndex,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const piece of fragments(step.text)) {
      send("response.output_text.delta", { item_id: item.id, output_index: outputIndex, content_index: 0, delta: piece, logprobs: [] });
    }
    const done = { ...item, status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] };
    send("response.output_item.done", { output_index: outputIndex, item: done });
    outputIndex += 1;
  }
  (step.toolCalls ?? []).forEach((call, callIndex) => {
    const args = argumentsText(call);
    const item = {
      id: `fc_${id}_${callIndex}`,
      type: "function_call",
      status: "in_progress",
      call_id: call.id ?? `call_${id}_${callIndex}`,
      name: call.name,
      arguments: "",
    };
    send("response.output_item.added", { output_index: outputIndex, item });
    for (const piece of fragments(args)) {
      send("response.function_call_arguments.delta", { item_id: item.id, output_index: outputIndex, delta: piece });
    }
    send("response.output_item.done", { output_index: outputIndex, item: { ...item, status: "completed", arguments: args } });
    outputIndex += 1;
  });
  send("response.completed", {
    response: {
      ...response,
      status: "completed",
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
        total_tokens: usage.input + usage.output,
      },
    },
  });
}

function corsHeaders(origin: string | undefined, request: IncomingMessage): Record<string, string> {
  if (!origin) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": request.headers["access-control-request-headers"] ?? "*",
    // The browser hides every other response header from the page without this.
    "access-control-expose-headers": "retry-after, retry-after-ms, x-request-id",
    "access-control-max-age": "600",
  };
}

export async function startProviderServer(options: ProviderServerOptions = {}): Promise<ProviderServer> {
  const queue: ScriptedResponse[] = [];
  const requests: RecordedRequest[] = [];
  let served = 0;
  const state = { aborted: 0 };
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const record = (entry: RecordedRequest) => {
    requests.push(entry);
    for (const waiter of waiters.filter((candidate) => requests.length >= candidate.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const cors = corsHeaders(options.corsOrigin, request);
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
      return;
    }
    const text = await readBody(request);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    record({ method: request.method ?? "GET", path, headers: request.headers, body });
    const protocol = protocolOf(path);
    const next = queue.shift();
    if (!protocol || !next) {
      const reason = !protocol ? `no endpoint ${path}` : "no scripted response left for this request";
      response.writeHead(500, { "content-type": "application/json", ...cors });
      response.end(JSON.stringify({ error: { message: `provider-server: ${reason}`, type: "server_error", code: null } }));
      return;
    }
    if ("error" in next) {
      const { status, body: errorBody, headers = {} } = next.error;
      const raw = typeof errorBody === "string" ? errorBody : JSON.stringify(errorBody);
      response.writeHead(status, {
        "content-type": typeof errorBody === "string" ? "text/plain" : "application/json",
        ...headers,
        ...cors,
      });
      response.end(raw);
      return;
    }
    if ("silent" in next) {
      response.on("close", () => {
        state.aborted += 1;
      });
      return;
    }
    served += 1;
    const fields = (body ?? {}) as { model?: string; stream_options?: { include_usage?: boolean } };
    const model = fields.model ?? "scripted";
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", ...cors });
    const sse = new SseWriter(response);
    if ("hang" in next) {
      if (protocol === "anthropic") sse.event("ping", { type: "ping" });
      else response.write(": waiting\n\n");
      if (protocol === "openai-chat" && next.text) {
        const base = { id: `chatcmpl-${served}`, object: "chat.completion.chunk", created: 1_700_000_000, model };
        sse.data({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
        for (const piece of fragments(next.text))
          sse.data({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      }
      // The response closes when the client goes away (an IncomingMessage's own close fires earlier).
      response.on("close", () => {
        state.aborted += 1;
      });
      return;
    }
    if ("streamError" in next) {
      anthropicStreamStartOnly(sse, model, served);
      sse.event("error", { type: "error", error: next.streamError });
      response.end();
      return;
    }
    if (protocol === "openai-chat") openaiChatStream(sse, next.step, model, fields.stream_options?.include_usage === true, served);
    else if (protocol === "openai-responses") openaiResponsesStream(sse, next.step, model, served);
    else anthropicStream(sse, next.step, model, served);
    response.end();
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: `${url}/v1`,
    enqueue: (...responses) => queue.push(...responses),
    drain: () => queue.splice(0).length,
    requests,
    get aborted() {
      return state.aborted;
    },
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function anthropicStreamStartOnly(sse: SseWriter, model: string, id: number): void {
  sse.event("message_start", {
    type: "message_start",
    message: {
      id: `msg_${id}`,
      type: "message",
      role: "assistant",
      content: [],
      model,
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
}

/** Error bodies as the providers send them. */
export const errorBodies = {
  openai: (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } }),
  anthropic: (type: string, message: string) => ({ type: "error", error: { type, message } }),
};
