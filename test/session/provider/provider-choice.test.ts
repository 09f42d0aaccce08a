/**
 * Default and small model choice as OpenCode makes it, and OpenCode's Responses API request change,
 * seen on the wire through the real @ai-sdk/openai package.
 */
import { streamText, type ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProvidersConfig } from "../../../src/session/provider/config.js";
import { resolveModel } from "../../../src/session/provider/factory.js";
import { defaultModelRef, smallModelRef } from "../../../src/session/provider/model-choice.js";
import { startProviderServer, type ProviderServer } from "../../support/provider-server.js";

describe("model choice", () => {
  it("uses config.model, else the preferred model of the first usable provider", () => {
    expect(defaultModelRef(parseProvidersConfig({ model: "anthropic/claude-haiku-4-5" }), () => false)).toEqual({
      providerID: "anthropic",
      modelID: "claude-haiku-4-5",
    });
    const none = parseProvidersConfig({});
    expect(defaultModelRef(none, (id) => id === "anthropic")).toEqual({ providerID: "anthropic", modelID: "claude-sonnet-4-5" });
    expect(defaultModelRef(none, (id) => id === "openai")).toEqual({ providerID: "openai", modelID: "gpt-5" });
    expect(defaultModelRef(none, () => false)).toBeUndefined();
    // When the config lists providers, only those count.
    const local = parseProvidersConfig({
      provider: { lm: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://localhost:1234/v1" }, models: { "qwen3-8b": {} } } },
    });
    expect(defaultModelRef(local, () => true)).toEqual({ providerID: "lm", modelID: "qwen3-8b" });
  });

  it("small model: small_model, else a small model of the session's provider, else the session's model", () => {
    const session = { providerID: "anthropic", modelID: "claude-sonnet-4-5" };
    expect(smallModelRef(parseProvidersConfig({ small_model: "openai/gpt-5-nano" }), session)).toEqual({
      providerID: "openai",
      modelID: "gpt-5-nano",
    });
    expect(smallModelRef(parseProvidersConfig({}), session)).toEqual({ providerID: "anthropic", modelID: "claude-haiku-4-5" });
    expect(smallModelRef(parseProvidersConfig({}), { providerID: "openai", modelID: "gpt-5" })).toEqual({
      providerID: "openai",
      modelID: "gpt-5-nano",
    });
    const local = { providerID: "lm", modelID: "qwen3-8b" };
    expect(smallModelRef(parseProvidersConfig({ provider: { lm: { models: { "qwen3-8b": {} } } } }), local)).toEqual(local);
  });
});

describe("OpenAI Responses requests", () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(() => server.close());

  it("go out without the ids of earlier input items (requests are not stored)", async () => {
    server.enqueue({ step: { text: "second answer" } });
    const config = parseProvidersConfig({ provider: { openai: { options: { baseURL: server.openaiBaseURL } } } });
    const resolved = await resolveModel("openai/gpt-5", { config, keys: { get: () => "sk" } });
    const messages: ModelMessage[] = [
      { role: "user", content: "first" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "thought", providerOptions: { openai: { itemId: "rs_earlier", reasoningEncryptedContent: "enc" } } },
          { type: "text", text: "first answer", providerOptions: { openai: { itemId: "msg_earlier" } } },
        ],
      },
      { role: "user", content: "second" },
    ];
    const result = streamText({ model: resolved.language, messages, maxRetries: 0, providerOptions: { openai: { store: false } } });
    expect(await result.text).toBe("second answer");
    const input = (server.requests[0]!.body as { input: Array<Record<string, unknown>> }).input;
    expect(input.map((item) => item.role ?? item.type)).toEqual(["user", "reasoning", "assistant", "user"]);
    expect(input.some((item) => "id" in item)).toBe(false);
    expect(JSON.stringify(input)).not.toContain("rs_earlier");
    expect(input[1]).toMatchObject({ type: "reasoning", encrypted_content: "enc" });
  });
});
