import { describe, expect, it } from "vitest";
import { parseModelRef, parseProvidersConfig, readProvidersConfig } from "../../../src/session/provider/config.js";
import { findModel, listProviders } from "../../../src/session/provider/providers.js";
import { ProviderSetupError } from "../../../src/session/provider/setup-error.js";
import { substituteConfigText, type SubstitutionContext } from "../../../src/session/provider/substitute.js";

function context(files: Record<string, string>, env: Record<string, string> = {}): SubstitutionContext {
  return { env, configDir: "/home/ada/project", home: "/home/ada", readFile: async (path) => files[path] };
}

// A user's opencode.json as OpenCode's docs write it: a local server, a hosted provider keyed from the
// environment, a prompt read from a file, comments and a trailing comma.
const REALISTIC = `{
  "$schema": "https://opencode.ai/config.json",
  // the default model
  "model": "ollama/qwen2.5-coder:7b",
  "small_model": "openrouter/anthropic/claude-sonnet-4.5",
  "provider": {
    "ollama": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Ollama (local)",
      "options": { "baseURL": "http://localhost:11434/v1" },
      "models": {
        "qwen2.5-coder:7b": { "name": "Qwen 2.5 Coder 7B", "limit": { "context": 32768, "output": 8192 } }
      }
    },
    "openrouter": {
      "options": { "apiKey": "{env:OPENROUTER_KEY}", "headers": { "X-Title": "{file:./title.txt}" } },
      "models": { "anthropic/claude-sonnet-4.5": { "cost": { "input": 3, "output": 15 }, "my_future_key": 1 } },
    },
  },
  "disabled_providers": ["google"],
  "permission": { "edit": "ask" }
}`;

describe("opencode.json providers", () => {
  it("reads a realistic config with {env:} and {file:} substituted", async () => {
    const config = await readProvidersConfig(REALISTIC, {
      ...context({ "/home/ada/project/title.txt": '  My "Workbench"\n' }, { OPENROUTER_KEY: "sk-or-123" }),
    });
    expect(config.model).toBe("ollama/qwen2.5-coder:7b");
    expect(config.provider?.openrouter?.options?.apiKey).toBe("sk-or-123");
    expect(config.provider?.openrouter?.options?.headers).toEqual({ "X-Title": 'My "Workbench"' });
    expect(config.provider?.ollama?.models?.["qwen2.5-coder:7b"]?.limit).toEqual({ context: 32768, output: 8192 });
    expect(config.disabled_providers).toEqual(["google"]);

    const providers = listProviders(config).map((provider) => provider.id);
    expect(providers).toEqual(expect.arrayContaining(["openai", "anthropic", "openrouter", "ollama"]));
    expect(providers).not.toContain("google");

    const { provider, model } = findModel(config, parseModelRef(config.model!));
    expect(provider).toMatchObject({ id: "ollama", name: "Ollama (local)", npm: "@ai-sdk/openai-compatible", builtIn: false });
    expect(model).toMatchObject({
      key: "qwen2.5-coder:7b",
      wireID: "qwen2.5-coder:7b",
      limit: { context: 32768, output: 8192 },
      toolCall: true,
      attachment: false,
    });

    // The config's cost overrides the catalog's; what the config leaves out (limits, abilities) stays.
    const sonnet = findModel(config, parseModelRef(config.small_model!)).model;
    expect(sonnet.cost).toEqual({ input: 3, output: 15, cacheRead: 0, cacheWrite: 0 });
    expect(sonnet.limit.context).toBeGreaterThan(0);
    expect(sonnet.attachment).toBe(true);
  });

  it("makes a missing environment variable an empty string, inserted raw", async () => {
    const text = await substituteConfigText(`{"a": "{env:NOPE}", "b": {env:NUM}}`, context({}, { NUM: "42" }));
    expect(JSON.parse(text)).toEqual({ a: "", b: 42 });
  });

  it("resolves {file:} against the config folder and home, and skips // lines", async () => {
    const files = { "/home/ada/.secrets/key": "sk-home\n", "/home/ada/shared/p.txt": "line1\nline2", "/abs/k": "abs" };
    const text = await substituteConfigText(
      `{"a": "{file:~/.secrets/key}", "b": "{file:../shared/p.txt}", "c": "{file:/abs/k}"\n// "d": "{file:missing}"\n}`,
      context(files),
    );
    expect(text).toContain('// "d": "{file:missing}"');
    const parsed = await readProvidersConfig(text, context({}));
    expect(parsed).toEqual({});
    expect(text).toContain('"a": "sk-home"');
    expect(text).toContain('"b": "line1\\nline2"');
    expect(text).toContain('"c": "abs"');
  });

  it("names the missing file", async () => {
    await expect(substituteConfigText(`{"a": "{file:prompt.md}"}`, context({}))).rejects.toThrow(
      'bad file reference: "{file:prompt.md}" /home/ada/project/prompt.md does not exist',
    );
  });

  it("names the JSON path of a schema problem", () => {
    const bad = (value: unknown) => {
      try {
        parseProvidersConfig(value);
      } catch (error) {
        expect(error).toBeInstanceOf(ProviderSetupError);
        return { message: (error as ProviderSetupError).message, path: (error as ProviderSetupError).path };
      }
      throw new Error("expected a config error");
    };
    expect(bad({ provider: { local: { options: { baseURL: 7 } } } }).path).toBe("provider.local.options.baseURL");
    expect(bad({ provider: { local: { models: { "m.1": { limit: { context: 100 } } } } } }).path).toBe(
      'provider.local.models["m.1"].limit.output',
    );
    expect(bad({ disabled_providers: ["a", 3] }).path).toBe("disabled_providers[1]");
    const model = bad({ model: "gpt-5" });
    expect(model.path).toBe("model");
    expect(model.message).toContain('"provider/model"');
  });

  it("gives the line and column of a JSON syntax error", async () => {
    await expect(readProvidersConfig(`{\n  "model": "a/b"\n  "x": 1\n}`, context({}))).rejects.toThrow(/line 3, column 3/);
  });

  it("splits model references at the first slash", () => {
    expect(parseModelRef("openrouter/anthropic/claude-sonnet-4.5")).toEqual({
      providerID: "openrouter",
      modelID: "anthropic/claude-sonnet-4.5",
    });
    expect(() => parseModelRef("gpt-5")).toThrow(/not a model reference/);
    expect(() => parseModelRef("openai/")).toThrow(/not a model reference/);
  });

  it("says what exists when a provider or model is unknown", () => {
    const config = parseProvidersConfig({
      provider: { lm: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://localhost:1234/v1" }, models: { "qwen3-8b": {} } } },
    });
    expect(() => findModel(config, { providerID: "nope", modelID: "x" })).toThrow(/unknown provider "nope"/);
    try {
      findModel(config, { providerID: "lm", modelID: "qwen3" });
      throw new Error("expected a model error");
    } catch (error) {
      expect((error as ProviderSetupError).kind).toBe("model");
      expect((error as ProviderSetupError).hint).toContain('"qwen3-8b"');
    }
    // A built-in provider's model outside the small catalog is allowed, with unknown limits.
    expect(findModel(config, { providerID: "openai", modelID: "gpt-4o-mini" }).model.limit).toEqual({ context: 0, output: 0 });
    const disabled = parseProvidersConfig({ enabled_providers: ["anthropic"] });
    expect(() => findModel(disabled, { providerID: "openai", modelID: "gpt-5" })).toThrow(/disabled/);
  });

  it("aliases a model key to another wire id and applies whitelist/blacklist", () => {
    const config = parseProvidersConfig({
      provider: { openai: { blacklist: ["gpt-4o"], models: { fast: { id: "gpt-5-nano", name: "Fast" } } } },
    });
    const openai = listProviders(config).find((provider) => provider.id === "openai")!;
    expect(openai.models.fast).toMatchObject({ key: "fast", wireID: "gpt-5-nano", name: "Fast" });
    expect(openai.models["gpt-4o"]).toBeUndefined();
    expect(openai.models["gpt-5"]).toBeDefined();
  });
});
