/**
 * Provider errors as the person should see them: what happened (bad key, no credit, model not found,
 * context too long, network down, CORS refused, rate limited, server error) and what to do, and
 * whether the loop may retry. CONTRACT (the loop calls this; the provider work fills it in).
 *
 * Reads what the AI SDK throws or streams: APICallError (status, body, headers, isRetryable), a fetch
 * TypeError (network or CORS), an error object a provider put in the middle of a stream, the SDK's
 * wrappers (RetryError, errors with a cause), and the workbench's own ProviderSetupError. Recognized by
 * shape, not class, so this module does not pull the SDK into the page.
 *
 * Retry policy: 429, 5xx, 529/overloaded and dropped connections are retryable; 401/403, no credit,
 * unknown model and context overflow never are. A page that cannot reach a server at all is not retried
 * either: a browser cannot tell a CORS refusal from a server that is down, and both need the person.
 */
import type { MessageError } from "../record/message.js";
import { isLocalURL, localServerHint } from "./local-servers.js";
import { retryAfterMs } from "./retry-after.js";
import { ProviderSetupError } from "./setup-error.js";

export interface ClassifiedError extends MessageError {
  /** 429 and 5xx: the loop waits and tries again. Never a 401. */
  retryable: boolean;
  /** From retry-after-ms / retry-after, when the provider sent them. */
  retryAfterMs?: number;
  /** The conversation is longer than the model's window: compact, do not retry. */
  contextOverflow: boolean;
}

export interface ClassifyContext {
  /** In a web page (changes the network advice); detected when not given. */
  page?: boolean;
  /** Clock for retry-after HTTP dates. */
  now?: number;
}

interface ApiCallErrorShape {
  message: string;
  url?: string;
  statusCode?: number;
  responseBody?: string;
  /** StreamProviderError: the error object the provider streamed. */
  data?: unknown;
  responseHeaders?: Record<string, string>;
  isRetryable?: boolean;
  cause?: unknown;
}

const record = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** APICallError (an HTTP answer or none), or StreamProviderError (an error event inside a 200 stream). */
function isApiCallError(error: unknown): error is ApiCallErrorShape & Error {
  if (!(error instanceof Error)) return false;
  if (error.name === "AI_APICallError" || error.name === "AI_StreamProviderError") return true;
  return "isRetryable" in error && ("requestBodyValues" in error || typeof (error as { statusCode?: unknown }).statusCode === "number");
}

/** The provider's own words and error code from an error body (OpenAI, Anthropic, Google shapes). */
function describeBody(body: unknown): { message?: string; code?: string } {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return body.trim() ? { message: body.trim().slice(0, 500) } : {};
    }
  }
  if (!record(value)) return {};
  const inner = record(value.error) ? value.error : value;
  const message = typeof inner.message === "string" ? inner.message : undefined;
  const code = [inner.code, inner.type, inner.status].find((part): part is string => typeof part === "string");
  return { ...(message ? { message } : {}), ...(code ? { code } : {}) };
}

const CONTEXT =
  /context_length_exceeded|prompt is too long|maximum context length|context window|exceeds the maximum number of tokens|input is too long|too many tokens|reduce the length of the messages/i;
const CREDIT =
  /insufficient_quota|credit balance|insufficient credits|billing|exceeded your current quota|payment required|out of credits/i;
const MODEL =
  /model_not_found|model not found|does not exist|no such model|unknown model|not_found_error|is not found for api version|invalid model/i;
const AUTH = /invalid_api_key|authentication_error|permission_error|incorrect api key|invalid x-api-key|api key not valid|unauthorized/i;
const OVERLOADED = /overloaded/i;

function isPage(): boolean {
  return typeof (globalThis as { document?: unknown }).document !== "undefined";
}

function hostOf(url: string | undefined): string {
  if (!url) return "the provider";
  try {
    return new URL(url).host;
  } catch {
    return "the provider";
  }
}

const KEY_HINT =
  "Check the key: in the page, open the provider dialog and enter it again; in the CLI, check the environment variable (or the {env:...} reference in opencode.json).";

function fromStatus(
  status: number | undefined,
  text: string,
  detail: { message?: string; code?: string },
  error: ApiCallErrorShape,
  context: ClassifyContext,
): ClassifiedError {
  const said = detail.message ?? error.message;
  const where = hostOf(error.url);
  const base = { message: said, status, contextOverflow: false, retryable: false };
  if (CONTEXT.test(text)) {
    return {
      ...base,
      kind: "context",
      message: `The conversation is too long for this model: ${said}`,
      hint: "Compact the session (older tool output is summarized) or start a new one; a model with a larger context window also helps.",
      contextOverflow: true,
    };
  }
  if (status === 401 || status === 403 || AUTH.test(text)) {
    return { ...base, kind: "auth", message: `${where} refused the API key${status ? ` (${status})` : ""}: ${said}`, hint: KEY_HINT };
  }
  if (status === 402 || CREDIT.test(text)) {
    return {
      ...base,
      kind: "credit",
      message: `No credit left at ${where}: ${said}`,
      hint: "Add credit or raise the spending limit in the provider's billing settings, or switch to another provider.",
    };
  }
  if (status === 404 || MODEL.test(text)) {
    return {
      ...base,
      kind: "model",
      message: `Model not found at ${where}: ${said}`,
      hint: "Check the model id (provider.<id>.models.<key>.id in opencode.json, or pick another model); a wrong options.baseURL path gives a 404 too.",
    };
  }
  const after = retryAfterMs(error.responseHeaders, context.now);
  const wait = after === undefined ? {} : { retryAfterMs: after };
  if (status === 429) {
    return {
      ...base,
      ...wait,
      kind: "rate",
      retryable: true,
      message: `Rate limited by ${where}: ${said}`,
      hint: "Waiting and retrying; if it keeps happening, slow down or raise the rate limit with the provider.",
    };
  }
  if (status === 529 || OVERLOADED.test(text)) {
    return {
      ...base,
      ...wait,
      kind: "server",
      retryable: true,
      message: `${where} is overloaded: ${said}`,
      hint: "Waiting and retrying; the provider is busy, not your request.",
    };
  }
  if (status !== undefined && status >= 500) {
    return {
      ...base,
      ...wait,
      kind: "server",
      retryable: true,
      message: `${where} had a server error (${status}): ${said}`,
      hint: "Waiting and retrying; if it persists, check the provider's status page.",
    };
  }
  if (error.isRetryable) {
    return { ...base, ...wait, kind: "server", retryable: true, hint: "Waiting and retrying." };
  }
  return {
    ...base,
    kind: "unknown",
    message: `${where} refused the request${status ? ` (${status})` : ""}: ${said}`,
    hint: "Read the provider's message above; the request or a model option may not suit this model.",
  };
}

/** Could not reach the server at all (no HTTP answer). */
function unreachable(url: string | undefined, reason: string, retryable: boolean, context: ClassifyContext): ClassifiedError {
  const base = { contextOverflow: false };
  const page = context.page ?? isPage();
  if (page && isLocalURL(url)) {
    return {
      ...base,
      kind: "cors",
      retryable: false,
      message: `${hostOf(url)} did not answer (${reason}).`,
      hint: localServerHint(url!),
    };
  }
  if (page) {
    return {
      ...base,
      kind: "network",
      retryable: false,
      message: `Could not reach ${hostOf(url)} (${reason}): the network is down or the provider refused this page's origin (CORS).`,
      hint: "Check your connection. If it works, this provider does not accept calls from a browser: use the workbench CLI, or a provider that does (OpenAI, Anthropic, Google, OpenRouter).",
    };
  }
  return {
    ...base,
    kind: "network",
    retryable,
    message: `Could not reach ${hostOf(url)}: ${reason}`,
    hint: isLocalURL(url)
      ? `Start the server at ${hostOf(url)}, or fix options.baseURL in opencode.json.`
      : "Check the network connection (and options.baseURL in opencode.json).",
  };
}

function causeCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; record(current) && depth < 5; current = current.cause, depth++) {
    if (typeof current.code === "string") return current.code;
  }
  return undefined;
}

function classify(error: unknown, context: ClassifyContext, depth: number): ClassifiedError {
  if (error instanceof ProviderSetupError) {
    return { kind: error.kind, message: error.message, hint: error.hint, retryable: false, contextOverflow: false };
  }
  if (record(error) && (error.name === "AbortError" || error.name === "ResponseAborted")) {
    return { kind: "aborted", message: "Stopped.", retryable: false, contextOverflow: false };
  }
  if (record(error) && error.name === "StreamIdleTimeoutError") {
    return {
      kind: "network",
      message: `The answer stalled: ${String(error.message)}.`,
      hint: "Retrying; provider.<id>.options.chunkTimeout in opencode.json sets how long to wait for a slow local model.",
      retryable: true,
      contextOverflow: false,
    };
  }
  if (record(error) && error.name === "TimeoutError") {
    return {
      kind: "network",
      message: "The provider did not answer in time.",
      hint: "Retrying; options.timeout in opencode.json sets how long to wait.",
      retryable: true,
      contextOverflow: false,
    };
  }
  if (isApiCallError(error)) {
    // "Failed to process successful response": the 200 answer broke off; the cause says why.
    if (depth < 5 && error.cause !== undefined && (error.statusCode === undefined || error.statusCode < 300)) {
      const inner = classify(error.cause, context, depth + 1);
      if (inner.kind !== "unknown") return inner;
    }
    if (error.statusCode === undefined) {
      const code = causeCode(error.cause);
      const reason = error.message.replace(/^Cannot connect to API:\s*/, "") || code || "no answer";
      return unreachable(error.url, reason, code !== "ECONNREFUSED" && error.isRetryable !== false, context);
    }
    const body = error.responseBody ?? (error.data === undefined ? undefined : JSON.stringify(error.data));
    const detail = describeBody(body);
    const text = `${error.message} ${body ?? ""}`;
    return fromStatus(error.statusCode, text, detail, error, context);
  }
  if (error instanceof TypeError && /failed to fetch|fetch failed|networkerror|load failed|network request failed/i.test(error.message)) {
    const url = (error as TypeError & { url?: string }).url;
    return unreachable(url, error.message, true, context);
  }
  if (record(error) && error.name === "AI_LoadAPIKeyError") {
    return { kind: "auth", message: String(error.message), hint: KEY_HINT, retryable: false, contextOverflow: false };
  }
  // Wrappers: RetryError keeps the last attempt's error, others keep a cause.
  if (depth < 5 && record(error)) {
    if (error.name === "AI_RetryError" && "lastError" in error) return classify(error.lastError, context, depth + 1);
    if ("cause" in error && error.cause !== undefined && error.cause !== error) {
      const inner = classify(error.cause, context, depth + 1);
      if (inner.kind !== "unknown") return inner;
    }
  }
  // An error a provider streamed mid-answer: `{type: "overloaded_error", message}` or `{error: {...}}`.
  if (record(error) && !(error instanceof Error)) {
    const detail = describeBody(error);
    if (detail.message || detail.code) {
      const text = `${detail.code ?? ""} ${detail.message ?? ""}`;
      const status = OVERLOADED.test(text) ? 529 : /rate_limit/i.test(text) ? 429 : /api_error|server_error/i.test(text) ? 500 : undefined;
      return fromStatus(status, text, detail, { message: detail.message ?? detail.code ?? "provider error" }, context);
    }
  }
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
  return { kind: "unknown", message, retryable: false, contextOverflow: false };
}

export function classifyProviderError(error: unknown, context: ClassifyContext = {}): ClassifiedError {
  return classify(error, context, 0);
}
