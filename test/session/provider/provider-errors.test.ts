/**
 * Real error responses (status, body, headers as each provider sends them) from the local server, thrown
 * or streamed by the real provider packages, classified for the person and the loop; and the retry delays.
 */
import { streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseProvidersConfig } from "../../../src/session/provider/config.js";
import { classifyProviderError, type ClassifiedError } from "../../../src/session/provider/errors.js";
import { resolveModel } from "../../../src/session/provider/factory.js";
import { keyScopedFetch } from "../../../src/session/provider/key-scoped-fetch.js";
import { retryAfterMs } from "../../../src/session/provider/retry-after.js";
import { retryDelayMs } from "../../../src/session/provider/retry.js";
import { errorBodies, startProviderServer, type ProviderServer, type ScriptedResponse } from "../../support/provider-server.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());

function config(baseURL: string) {
  return parseProvidersConfig({
    provider: {
      local: { npm: "@ai-sdk/openai-compatible", options: { baseURL }, models: { m: {} } },
      anthropic: { options: { baseURL } },
    },
  });
}

/** Runs one step and returns what the stream reported as its error (or what was thrown). */
async function failure(modelRef: string, response: ScriptedResponse | undefined, base = server.openaiBaseURL): Promise<unknown> {
  if (response) server.enqueue(response);
  const resolved = await resolveModel(modelRef, { config: config(base), keys: { get: () => "sk-test" } });
  const result = streamText({ model: resolved.language, prompt: "hi", maxRetries: 0, onError: () => {} });
  try {
    for await (const part of result.fullStream) if (part.type === "error") return part.error;
  } catch (error) {
    return error;
  }
  throw new Error("the step did not fail");
}

async function classified(modelRef: string, response: ScriptedResponse): Promise<ClassifiedError> {
  return classifyProviderError(await failure(modelRef, response));
}

const openai = errorBodies.openai;
const anthropic = errorBodies.anthropic;

describe("classifyProviderError on real provider responses", () => {
  it("401: bad key, never retried (OpenAI-compatible and Anthropic)", async () => {
    const a = await classified("local/m", {
      error: { status: 401, body: openai("Incorrect API key provided: sk-test.", "invalid_request_error", "invalid_api_key") },
    });
    expect(a).toMatchObject({ kind: "auth", status: 401, retryable: false, contextOverflow: false });
    expect(a.message).toContain("Incorrect API key provided");
    expect(a.hint).toMatch(/provider dialog/);
    const b = await classified("anthropic/claude-sonnet-4-5", {
      error: { status: 401, body: anthropic("authentication_error", "invalid x-api-key") },
    });
    expect(b).toMatchObject({ kind: "auth", retryable: false });
    // Even if a 401 came with a retry-after, it is not retried.
    const c = await classified("local/m", {
      error: { status: 403, body: openai("forbidden", "permission_error"), headers: { "retry-after": "1" } },
    });
    expect(c).toMatchObject({ kind: "auth", retryable: false });
  });

  it("402 and insufficient_quota (even as a 429) and Anthropic's credit balance: no credit", async () => {
    expect(
      await classified("local/m", {
        error: {
          status: 402,
          body: { error: { message: "Insufficient credits. Add more using https://openrouter.ai/settings/credits", code: 402 } },
        },
      }),
    ).toMatchObject({
      kind: "credit",
      retryable: false,
    });
    expect(
      await classified("local/m", {
        error: {
          status: 429,
          body: openai(
            "You exceeded your current quota, please check your plan and billing details.",
            "insufficient_quota",
            "insufficient_quota",
          ),
        },
      }),
    ).toMatchObject({ kind: "credit", retryable: false });
    expect(
      await classified("anthropic/claude-sonnet-4-5", {
        error: {
          status: 400,
          body: anthropic(
            "invalid_request_error",
            "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
          ),
        },
      }),
    ).toMatchObject({ kind: "credit", retryable: false });
  });

  it("404 / model_not_found: model not found", async () => {
    const a = await classified("local/m", {
      error: {
        status: 404,
        body: openai("The model `gpt-9` does not exist or you do not have access to it.", "invalid_request_error", "model_not_found"),
      },
    });
    expect(a).toMatchObject({ kind: "model", status: 404, retryable: false });
    expect(a.message).toContain("gpt-9");
    expect(
      await classified("anthropic/claude-sonnet-4-5", { error: { status: 404, body: anthropic("not_found_error", "model: claude-9") } }),
    ).toMatchObject({ kind: "model" });
  });

  it("context too long: contextOverflow, not retried", async () => {
    const a = await classified("local/m", {
      error: {
        status: 400,
        body: openai(
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
          "invalid_request_error",
          "context_length_exceeded",
        ),
      },
    });
    expect(a).toMatchObject({ kind: "context", contextOverflow: true, retryable: false });
    const b = await classified("anthropic/claude-sonnet-4-5", {
      error: { status: 400, body: anthropic("invalid_request_error", "prompt is too long: 212345 tokens > 200000 maximum") },
    });
    expect(b).toMatchObject({ kind: "context", contextOverflow: true });
  });

  it("429 with retry-after seconds, retry-after-ms, or an HTTP date: retryable, the wait honoured", async () => {
    const seconds = await classified("local/m", {
      error: { status: 429, body: openai("Rate limit reached", "requests", "rate_limit_exceeded"), headers: { "retry-after": "7" } },
    });
    expect(seconds).toMatchObject({ kind: "rate", retryable: true, retryAfterMs: 7000 });
    const ms = await classified("local/m", {
      error: { status: 429, body: openai("Rate limit reached", "requests"), headers: { "retry-after-ms": "1500", "retry-after": "2" } },
    });
    expect(ms.retryAfterMs).toBe(1500);
    const date = new Date(Date.UTC(2030, 0, 1, 0, 0, 45)).toUTCString();
    const error = await failure("anthropic/claude-sonnet-4-5", {
      error: {
        status: 429,
        body: anthropic("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
        headers: { "retry-after": date },
      },
    });
    const fromDate = classifyProviderError(error, { now: Date.UTC(2030, 0, 1, 0, 0, 15) });
    expect(fromDate).toMatchObject({ kind: "rate", retryable: true, retryAfterMs: 30_000 });
    const none = await classified("local/m", { error: { status: 429, body: openai("Rate limit reached", "requests") } });
    expect(none.retryAfterMs).toBeUndefined();
    expect(none.retryable).toBe(true);
  });

  it("500 and Anthropic's 529 overloaded (as a status and mid-stream): retryable server errors", async () => {
    expect(
      await classified("local/m", {
        error: { status: 500, body: openai("The server had an error while processing your request.", "server_error") },
      }),
    ).toMatchObject({
      kind: "server",
      status: 500,
      retryable: true,
      contextOverflow: false,
    });
    expect(
      await classified("anthropic/claude-sonnet-4-5", { error: { status: 529, body: anthropic("overloaded_error", "Overloaded") } }),
    ).toMatchObject({
      kind: "server",
      status: 529,
      retryable: true,
    });
    const streamed = await classified("anthropic/claude-sonnet-4-5", { streamError: { type: "overloaded_error", message: "Overloaded" } });
    expect(streamed).toMatchObject({ kind: "server", retryable: true });
    expect(streamed.message).toContain("overloaded");
  });

  it("a 400 it does not recognise keeps the provider's words and is not retried", async () => {
    const a = await classified("local/m", {
      error: { status: 400, body: openai("Invalid value for 'temperature'", "invalid_request_error") },
    });
    expect(a).toMatchObject({ kind: "unknown", status: 400, retryable: false });
    expect(a.message).toContain("Invalid value for 'temperature'");
  });
});

describe("unreachable servers", () => {
  it("Node: a closed local port is network, with the server to start; not retried", async () => {
    const gone = await startProviderServer();
    const base = gone.openaiBaseURL;
    await gone.close();
    const error = await failure("local/m", undefined, base);
    const result = classifyProviderError(error, { page: false });
    expect(result).toMatchObject({ kind: "network", retryable: false });
    expect(result.hint).toContain("Start the server");
  });

  it("page: a fetch TypeError to Ollama or LM Studio says exactly what to set; a remote one says network or CORS", async () => {
    const failing = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    const pageFailure = async (baseURL: string) => {
      const cfg = parseProvidersConfig({ provider: { p: { npm: "@ai-sdk/openai-compatible", options: { baseURL }, models: { m: {} } } } });
      const resolved = await resolveModel("p/m", { config: cfg, keys: { get: () => undefined }, fetch: failing, page: true });
      const result = streamText({ model: resolved.language, prompt: "hi", maxRetries: 0, onError: () => {} });
      for await (const part of result.fullStream) if (part.type === "error") return classifyProviderError(part.error, { page: true });
      throw new Error("the step did not fail");
    };
    const ollama = await pageFailure("http://localhost:11434/v1");
    expect(ollama).toMatchObject({ kind: "cors", retryable: false });
    expect(ollama.hint).toContain("OLLAMA_ORIGINS");
    const lmstudio = await pageFailure("http://127.0.0.1:1234/v1");
    expect(lmstudio.kind).toBe("cors");
    expect(lmstudio.hint).toContain("lms server start --cors");
    const remote = await pageFailure("https://api.example.com/v1");
    expect(remote).toMatchObject({ kind: "network", retryable: false });
    expect(remote.message).toContain("network is down or the provider refused this page's origin");
  });

  it("Stop aborts a hanging stream: the stream ends with an abort, the server sees the client leave", async () => {
    const before = server.requests.length;
    const abortedBefore = server.aborted;
    server.enqueue({ hang: true });
    const resolved = await resolveModel("local/m", { config: config(server.openaiBaseURL), keys: { get: () => undefined } });
    const controller = new AbortController();
    const result = streamText({ model: resolved.language, prompt: "hi", maxRetries: 0, abortSignal: controller.signal, onError: () => {} });
    void server.waitForRequests(before + 1).then(() => controller.abort());
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain("abort");
    expect(types).not.toContain("finish");
    await vi.waitFor(() => expect(server.aborted).toBeGreaterThan(abortedBefore));
  });

  it("a stream that goes silent past options.chunkTimeout ends with a retryable error", async () => {
    server.enqueue({ hang: true });
    const cfg = parseProvidersConfig({
      provider: {
        slow: { npm: "@ai-sdk/openai-compatible", options: { baseURL: server.openaiBaseURL, chunkTimeout: 200 }, models: { m: {} } },
      },
    });
    const resolved = await resolveModel("slow/m", { config: cfg, keys: { get: () => undefined } });
    const result = streamText({ model: resolved.language, prompt: "hi", maxRetries: 0, onError: () => {} });
    let error: unknown;
    try {
      for await (const part of result.fullStream) if (part.type === "error") error = part.error;
    } catch (thrown) {
      // A body that breaks off is thrown out of the stream (wrapped in an APICallError), not streamed.
      error = thrown;
    }
    expect(classifyProviderError(error)).toMatchObject({ kind: "network", retryable: true });
    expect(classifyProviderError(error).hint).toContain("chunkTimeout");
  });

  it("a server that accepts and sends nothing, not even its headers, ends at options.chunkTimeout with a retryable error", async () => {
    const abortedBefore = server.aborted;
    server.enqueue({ silent: true });
    const cfg = parseProvidersConfig({
      provider: {
        mute: { npm: "@ai-sdk/openai-compatible", options: { baseURL: server.openaiBaseURL, chunkTimeout: 300 }, models: { m: {} } },
      },
    });
    const resolved = await resolveModel("mute/m", { config: cfg, keys: { get: () => undefined } });
    const result = streamText({ model: resolved.language, prompt: "hi", maxRetries: 0, onError: () => {} });
    let error: unknown;
    try {
      for await (const part of result.fullStream) if (part.type === "error") error = part.error;
    } catch (thrown) {
      error = thrown;
    }
    const classified = classifyProviderError(error, { page: false });
    expect(classified).toMatchObject({ kind: "network", retryable: true });
    expect(classified.message).toContain("sent nothing for 300 ms before answering");
    // The connection is given up, not left open.
    await vi.waitFor(() => expect(server.aborted).toBeGreaterThan(abortedBefore));
  });

  it("the error an aborted provider fetch throws is 'aborted', not an error to retry", async () => {
    const before = server.requests.length;
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const scoped = keyScopedFetch({ providerID: "local", baseURL: server.openaiBaseURL });
    void server.waitForRequests(before + 1).then(() => controller.abort());
    const error = await scoped(`${server.openaiBaseURL}/chat/completions`, { method: "POST", body: "{}", signal: controller.signal })
      .then((response) => response.text())
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeDefined();
    expect(classifyProviderError(error)).toMatchObject({ kind: "aborted", retryable: false });
  });
});

describe("retry delays", () => {
  const rate: ClassifiedError = { kind: "rate", message: "429", retryable: true, contextOverflow: false };

  it("2 s doubling, capped at 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt, rate))).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("what the provider asked for, even beyond the cap", () => {
    expect(retryDelayMs(1, { ...rate, retryAfterMs: 500 })).toBe(500);
    expect(retryDelayMs(5, { ...rate, retryAfterMs: 45_000 })).toBe(45_000);
  });

  it("reads retry-after-ms, retry-after seconds and HTTP dates", () => {
    const now = Date.UTC(2030, 5, 1, 12, 0, 0);
    expect(retryAfterMs({ "retry-after-ms": "250.5" }, now)).toBe(251);
    expect(retryAfterMs({ "Retry-After": "3" }, now)).toBe(3000);
    expect(retryAfterMs({ "retry-after": new Date(now + 12_000).toUTCString() }, now)).toBe(12_000);
    expect(retryAfterMs({ "retry-after": new Date(now - 5_000).toUTCString() }, now)).toBe(0);
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
  });
});
