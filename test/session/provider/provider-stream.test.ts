/**
 * resolveModel through the real AI SDK provider packages against a local server that speaks their
 * streaming protocols: text, reasoning and a tool call whose arguments arrive in fragments, usage, the
 * headers each package sends, and where keys may go.
 */
import { streamText, tool, type ModelMessage } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseProvidersConfig, type ProvidersConfig } from "../../../src/session/provider/config.js";
import { keysFromEnv, resolveModel, type KeySource } from "../../../src/session/provider/factory.js";
import { keyScopedFetch } from "../../../src/session/provider/key-scoped-fetch.js";
import { KeyStore, MemoryKeyStorage } from "../../../src/session/provider/keys.js";
import { ProviderSetupError } from "../../../src/session/provider/setup-error.js";
import { startProviderServer, type ProviderServer } from "../../support/provider-server.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const tools = {
  read: tool({
    description: "Read a file",
    inputSchema: z.object({ filePath: z.string().describe("absolute path"), limit: z.number().int().optional() }),
  }),
};

const noKeys: KeySource = { get: () => undefined };

function localConfig(): ProvidersConfig {
  return parseProvidersConfig({
    provider: {
      local: {
        npm: "@ai-sdk/openai-compatible",
        name: "Local",
        options: { baseURL: server.openaiBaseURL, headers: { "X-Custom": "yes" } },
        models: { "qwen3-coder": { name: "Qwen3 Coder", limit: { context: 32768, output: 4096 }, cost: { input: 0.1, output: 0.2 } } },
      },
      anthropic: { options: { baseURL: server.anthropicBaseURL } },
      openai: { options: { baseURL: server.openaiBaseURL } },
    },
  });
}

async function runStep(language: Parameters<typeof streamText>[0]["model"], messages?: ModelMessage[]) {
  const result = streamText({ model: language, ...(messages ? { messages } : { prompt: "read /a.txt" }), tools, maxRetries: 0 });
  const types: string[] = [];
  let text = "";
  let reasoning = "";
  const inputDeltas: string[] = [];
  for await (const part of result.fullStream) {
    types.push(part.type);
    if (part.type === "text-delta") text += part.text;
    if (part.type === "reasoning-delta") reasoning += part.text;
    if (part.type === "tool-input-delta") inputDeltas.push(part.delta);
    if (part.type === "error") throw part.error;
  }
  return {
    types,
    text,
    reasoning,
    inputDeltas,
    usage: await result.usage,
    toolCalls: await result.toolCalls,
    finish: await result.finishReason,
  };
}

describe("resolveModel against the providers' streaming protocols", () => {
  it("OpenAI-compatible: streams text, reasoning and a tool call split across chunks, with usage", async () => {
    server.enqueue({
      step: {
        reasoning: "The user wants a file.",
        text: "Reading the file now.",
        toolCalls: [{ name: "read", input: { filePath: "/work/a.txt", limit: 20 }, id: "call_abc" }],
        usage: { input: 321, output: 54, reasoning: 7, cacheRead: 100 },
      },
    });
    const resolved = await resolveModel("local/qwen3-coder", { config: localConfig(), keys: { get: () => "sk-local" } });
    expect(resolved.info).toEqual({
      providerID: "local",
      modelID: "qwen3-coder",
      name: "Qwen3 Coder",
      limit: { context: 32768, output: 4096 },
      cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
      attachment: false,
      reasoning: false,
    });
    expect(resolved.providerOptionsKey).toBe("local");
    const step = await runStep(resolved.language);
    expect(step.text).toBe("Reading the file now.");
    expect(step.reasoning).toBe("The user wants a file.");
    expect(step.inputDeltas.length).toBeGreaterThan(1);
    expect(step.inputDeltas.join("")).toBe(JSON.stringify({ filePath: "/work/a.txt", limit: 20 }));
    expect(step.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: "call_abc", toolName: "read", input: { filePath: "/work/a.txt", limit: 20 } }),
    ]);
    expect(step.finish).toBe("tool-calls");
    expect(step.usage).toMatchObject({
      inputTokens: 321,
      outputTokens: 54,
      inputTokenDetails: { cacheReadTokens: 100 },
      outputTokenDetails: { reasoningTokens: 7 },
    });

    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-local");
    expect(request.headers["x-custom"]).toBe("yes");
    const body = request.body as {
      model: string;
      stream: boolean;
      stream_options?: unknown;
      tools: Array<{ function: { name: string; parameters: unknown } }>;
    };
    expect(body.model).toBe("qwen3-coder");
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.tools[0]!.function).toMatchObject({
      name: "read",
      parameters: {
        type: "object",
        properties: { filePath: { type: "string", description: "absolute path" }, limit: { type: "integer" } },
        required: ["filePath"],
      },
    });
  });

  it("OpenAI-compatible: sends the tool result back on the next step", async () => {
    server.enqueue({ step: { text: "The file says hello." } });
    const resolved = await resolveModel("local/qwen3-coder", { config: localConfig(), keys: noKeys });
    const messages: ModelMessage[] = [
      { role: "user", content: "read /a.txt" },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "read", input: { filePath: "/a.txt" } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "read", output: { type: "text", value: "hello" } }],
      },
    ];
    const step = await runStep(resolved.language, messages);
    expect(step.text).toBe("The file says hello.");
    const sent = (server.requests[0]!.body as { messages: Array<Record<string, unknown>> }).messages;
    expect(sent.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "hello" });
    // A local server without a key gets no Authorization header at all.
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("Anthropic: streams thinking, text and a tool call, with usage and the key in x-api-key", async () => {
    server.enqueue({
      step: {
        reasoning: "Need to look.",
        text: "Let me read it.",
        toolCalls: [{ name: "read", input: { filePath: "/work/b.txt" } }],
        usage: { input: 900, output: 40, cacheRead: 300, cacheWrite: 50 },
      },
    });
    const resolved = await resolveModel("anthropic/claude-sonnet-4-5", {
      config: localConfig(),
      keys: keysFromEnv({ ANTHROPIC_API_KEY: "sk-ant-1" }),
    });
    expect(resolved.info.limit).toEqual({ context: 200_000, output: 64_000 });
    const step = await runStep(resolved.language);
    expect(step.reasoning).toBe("Need to look.");
    expect(step.text).toBe("Let me read it.");
    expect(step.inputDeltas.join("")).toBe(JSON.stringify({ filePath: "/work/b.txt" }));
    expect(step.toolCalls.map((call) => [call.toolName, call.input])).toEqual([["read", { filePath: "/work/b.txt" }]]);
    expect(step.finish).toBe("tool-calls");
    expect(step.usage).toMatchObject({ outputTokens: 40, inputTokenDetails: { cacheReadTokens: 300, cacheWriteTokens: 50 } });

    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("sk-ant-1");
    expect(request.headers["anthropic-beta"]).toContain("fine-grained-tool-streaming-2025-05-14");
    // Not a page: no browser header.
    expect(request.headers["anthropic-dangerous-direct-browser-access"]).toBeUndefined();
    const body = request.body as { model: string; tools: Array<{ name: string; input_schema: unknown }> };
    expect(body.model).toBe("claude-sonnet-4-5");
    expect(body.tools[0]).toMatchObject({ name: "read", input_schema: { type: "object", required: ["filePath"] } });
  });

  it("Anthropic: adds the direct-browser-access header in a page", async () => {
    server.enqueue({ step: { text: "hi" } });
    const keys = new KeyStore(new MemoryKeyStorage());
    await keys.set("anthropic", "sk-ant-page", { remember: false });
    const resolved = await resolveModel("anthropic/claude-haiku-4-5", { config: localConfig(), keys, page: true });
    expect((await runStep(resolved.language)).text).toBe("hi");
    expect(server.requests[0]!.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
    expect(server.requests[0]!.headers["x-api-key"]).toBe("sk-ant-page");
  });

  it("openai goes through the Responses API, as in OpenCode", async () => {
    server.enqueue({ step: { text: "Done.", toolCalls: [{ name: "read", input: { filePath: "/c" } }], usage: { input: 12, output: 3 } } });
    const resolved = await resolveModel("openai/gpt-5", { config: localConfig(), keys: keysFromEnv({ OPENAI_API_KEY: "sk-oa" }) });
    const step = await runStep(resolved.language);
    expect(step.text).toBe("Done.");
    expect(step.toolCalls.map((call) => call.input)).toEqual([{ filePath: "/c" }]);
    expect(step.usage).toMatchObject({ inputTokens: 12, outputTokens: 3 });
    expect(server.requests[0]!.path).toBe("/v1/responses");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-oa");
  });

  it("a key in options.apiKey wins over the key source", async () => {
    server.enqueue({ step: { text: "ok" } });
    const config = parseProvidersConfig({
      provider: {
        local: { npm: "@ai-sdk/openai-compatible", options: { baseURL: server.openaiBaseURL, apiKey: "from-config" }, models: { m: {} } },
      },
    });
    await runStep((await resolveModel("local/m", { config, keys: { get: () => "from-store" } })).language);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer from-config");
  });
});

describe("keys go only where they belong", () => {
  it("the provider's fetch refuses any origin but its base URL, before sending anything", async () => {
    const other = await startProviderServer();
    try {
      other.enqueue({ step: { text: "should never be asked" } });
      const scoped = keyScopedFetch({ providerID: "local", baseURL: server.openaiBaseURL });
      const refused = await scoped(`${other.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer secret" },
        body: "{}",
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ProviderSetupError);
      expect((refused as ProviderSetupError).kind).toBe("security");
      expect((refused as ProviderSetupError).message).toContain(other.url);
      expect(other.requests).toHaveLength(0);

      server.enqueue({ step: { text: "allowed" } });
      const allowed = await scoped(`${server.openaiBaseURL}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", stream: true }),
      });
      expect(allowed.status).toBe(200);
      expect(server.requests).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("options.baseURL wins over a model entry's own API URL, as in OpenCode", async () => {
    const other = await startProviderServer();
    try {
      // The provider's key is scoped to the provider's baseURL; a model claiming another API host cannot
      // pull the key there: the provider's options.baseURL wins, as in OpenCode.
      const config = parseProvidersConfig({
        provider: {
          local: {
            npm: "@ai-sdk/openai-compatible",
            options: { baseURL: server.openaiBaseURL, apiKey: "k" },
            models: { m: { provider: { api: `${other.url}/v1` } } },
          },
        },
      });
      server.enqueue({ step: { text: "here" } });
      const resolved = await resolveModel("local/m", { config, keys: noKeys });
      expect(resolved.baseURL).toBe(server.openaiBaseURL);
      expect((await runStep(resolved.language)).text).toBe("here");
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it("a missing key says where to set it, in the page and in the CLI", async () => {
    const config = localConfig();
    const page = await resolveModel("anthropic/claude-sonnet-4-5", { config, keys: noKeys, page: true }).catch((error: unknown) => error);
    expect(page).toBeInstanceOf(ProviderSetupError);
    expect((page as ProviderSetupError).kind).toBe("auth");
    expect((page as ProviderSetupError).hint).toContain("provider dialog");
    const cli = await resolveModel("google/gemini-2.5-flash", { config, keys: keysFromEnv({}) }).catch((error: unknown) => error);
    expect((cli as ProviderSetupError).hint).toContain("GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY");
    expect((cli as ProviderSetupError).hint).toContain("{env:");
    expect(server.requests).toHaveLength(0);
  });

  it("an unbundled package or a provider without a base URL is a setup error, not a crash", async () => {
    const config = parseProvidersConfig({
      provider: {
        bedrock: { npm: "@ai-sdk/amazon-bedrock", options: { baseURL: "https://example.com" }, models: { m: {} } },
        nourl: { npm: "@ai-sdk/openai-compatible", models: { m: {} } },
      },
    });
    await expect(resolveModel("bedrock/m", { config, keys: { get: () => "k" } })).rejects.toThrow(/not part of the workbench/);
    const missing = (await resolveModel("nourl/m", { config, keys: noKeys }).catch((error: unknown) => error)) as ProviderSetupError;
    expect(missing.path).toBe("provider.nourl.options.baseURL");
  });
});
