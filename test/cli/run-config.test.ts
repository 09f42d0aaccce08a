/** Which providers and model `workbench run` uses: opencode.json read as OpenCode reads it. */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseRunModel, loadRunProviders, mergeProvidersConfig } from "../../src/cli/run-config.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import { ProviderSetupError } from "../../src/session/provider/setup-error.js";
import { testAgent } from "../support/loop.js";

async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "wb-run-config-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe("loadRunProviders", () => {
  it("lays the workspace's file over the global one, filling {env:} and {file:}", async () => {
    const global = await dirWith({
      "opencode.json": JSON.stringify({
        model: "anthropic/claude-sonnet-4-5",
        provider: {
          local: {
            npm: "@ai-sdk/openai-compatible",
            options: { baseURL: "http://127.0.0.1:1/v1", apiKey: "{env:LOCAL_KEY}" },
            models: { a: {} },
          },
        },
      }),
    });
    const workspace = await dirWith({
      "key.txt": "from-a-file\n",
      // JSONC, as OpenCode allows.
      "opencode.jsonc": `{
        // the workspace's own model
        "model": "local/b",
        "provider": { "local": { "options": { "headers": { "x-team": "{file:key.txt}" } }, "models": { "b": { "name": "B" } } } },
      }`,
    });
    const runtime = createNodeRuntime({ root: workspace });
    const config = await loadRunProviders({
      runtime,
      configPath: join(workspace, "opencode.jsonc"),
      globalConfigDir: global,
      env: { LOCAL_KEY: "k-1" },
      home: "/home/nobody",
      trusted: true,
    });
    expect(config.model).toBe("local/b");
    expect(config.provider?.local?.options).toEqual({
      baseURL: "http://127.0.0.1:1/v1",
      apiKey: "k-1",
      headers: { "x-team": "from-a-file" },
    });
    expect(Object.keys(config.provider?.local?.models ?? {})).toEqual(["a", "b"]);
  });

  it("reports a config mistake with its path and what to fix", async () => {
    const workspace = await dirWith({ "opencode.json": JSON.stringify({ model: "no-slash" }) });
    const runtime = createNodeRuntime({ root: workspace });
    const error = await loadRunProviders({ runtime, configPath: join(workspace, "opencode.json"), env: {}, home: "/" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderSetupError);
    expect((error as ProviderSetupError).message).toContain('model: must be "provider/model"');
  });
});

describe("chooseRunModel", () => {
  const config = mergeProvidersConfig(
    { provider: { local: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://127.0.0.1:1/v1" }, models: { small: {} } } } },
    {},
  );

  it("takes --model first, then the agent's model, then config, then a provider that can answer", () => {
    const agent = testAgent("build");
    expect(chooseRunModel("openai/gpt-5", testAgent("build", { model: { providerID: "x", modelID: "y" } }), config, {})).toEqual({
      providerID: "openai",
      modelID: "gpt-5",
    });
    expect(chooseRunModel(undefined, testAgent("build", { model: { providerID: "x", modelID: "y" } }), config, {})).toEqual({
      providerID: "x",
      modelID: "y",
    });
    expect(chooseRunModel(undefined, agent, { ...config, model: "local/small" }, {})).toEqual({ providerID: "local", modelID: "small" });
    // A local server needs no key.
    expect(chooseRunModel(undefined, agent, config, {})).toEqual({ providerID: "local", modelID: "small" });
  });

  it("picks a built-in provider only when its key is in the environment", () => {
    const agent = testAgent("build");
    expect(chooseRunModel(undefined, agent, {}, {})).toBeUndefined();
    expect(chooseRunModel(undefined, agent, {}, { ANTHROPIC_API_KEY: "sk-ant" })?.providerID).toBe("anthropic");
  });

  it("refuses a --model that is not provider/model", () => {
    expect(() => chooseRunModel("gpt-5", testAgent("build"), config, {})).toThrow(/is not a model reference/);
  });
});
