/**
 * The resolved model's own settings reach the request: its configured options and the agent's, under the
 * key the package reads (a custom provider id on @ai-sdk/openai still means "openai"); no temperature for
 * a model that takes none; no tools for a model that takes none. The real @ai-sdk/openai package against
 * the local server, whose recorded request bodies are checked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseProvidersConfig } from "../../../src/session/provider/config.js";
import { resolveModel } from "../../../src/session/provider/factory.js";
import { loopOnce, testAgent } from "../../support/loop.js";
import { startProviderServer, type ProviderServer } from "../../support/provider-server.js";
import { sessionWith } from "../../support/tool-session.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

function config(model: Record<string, unknown>) {
  return parseProvidersConfig({
    provider: { corp: { npm: "@ai-sdk/openai", options: { baseURL: server.openaiBaseURL }, models: { "corp-model": model } } },
  });
}

async function requestBody(model: Record<string, unknown>): Promise<Record<string, unknown>> {
  const made = await sessionWith();
  disposers.push(made.dispose);
  const resolved = await resolveModel("corp/corp-model", { config: config(model), keys: { get: () => "sk-corp" } });
  const agent = testAgent("build", { temperature: 0.3, options: { user: "agent-user", parallelToolCalls: true } });
  const before = server.requests.length;
  server.enqueue({ step: { text: "ok" } });
  const { end } = await loopOnce(made.session, resolved, "hi", { agent });
  expect(end).toBe("done");
  return server.requests[before]!.body as Record<string, unknown>;
}

describe("the resolved model's settings in the request", () => {
  it("sends model and agent options under the package's key, the temperature, and the tools", async () => {
    const body = await requestBody({ temperature: true, tool_call: true, options: { parallelToolCalls: false, store: false } });
    expect(body.user).toBe("agent-user");
    // The agent's option wins over the model's; the model's own stays.
    expect(body.parallel_tool_calls).toBe(true);
    expect(body.store).toBe(false);
    expect(body.temperature).toBe(0.3);
    expect(Array.isArray(body.tools) && body.tools.length).toBeGreaterThan(0);
  });

  it("sends no temperature and no tools to a model that takes neither", async () => {
    const body = await requestBody({ temperature: false, tool_call: false });
    expect(body.user).toBe("agent-user");
    expect(body).not.toHaveProperty("temperature");
    expect(body.tools === undefined || (Array.isArray(body.tools) && body.tools.length === 0)).toBe(true);
  });
});
