/**
 * The test provider server itself: what a browser needs from it (CORS preflight, readable retry-after)
 * and that an unscripted request fails loudly instead of hanging a test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodies, fragments, startProviderServer, type ProviderServer } from "../../support/provider-server.js";

describe("provider test server", () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer({ corsOrigin: "http://localhost:4173" });
  });
  afterAll(() => server.close());

  it("answers a CORS preflight with the origin and the asked-for headers", async () => {
    const response = await fetch(`${server.anthropicBaseURL}/messages`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:4173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key,anthropic-dangerous-direct-browser-access",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:4173");
    expect(response.headers.get("access-control-allow-headers")).toBe("x-api-key,anthropic-dangerous-direct-browser-access");
    expect(server.requests).toHaveLength(0);
  });

  it("lets the page read retry-after on an error", async () => {
    server.enqueue({ error: { status: 429, body: errorBodies.openai("slow down", "requests"), headers: { "retry-after": "2" } } });
    const response = await fetch(`${server.openaiBaseURL}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: true }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("access-control-expose-headers")).toContain("retry-after");
    expect(await response.json()).toEqual({ error: { message: "slow down", type: "requests", param: null, code: null } });
  });

  it("fails an unscripted request with a message that says so", async () => {
    const response = await fetch(`${server.openaiBaseURL}/chat/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).toContain("no scripted response left");
  });

  it("streams OpenAI chunks ending in [DONE], usage only when asked", async () => {
    server.enqueue({ step: { text: "abcdefghij" } }, { step: { text: "x" } });
    const read = async (body: unknown) =>
      (await fetch(`${server.openaiBaseURL}/chat/completions`, { method: "POST", body: JSON.stringify(body) })).text();
    const withUsage = await read({ model: "m", stream: true, stream_options: { include_usage: true } });
    const events = withUsage.split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(events.at(-2)!.slice(6))).toMatchObject({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } });
    const withoutUsage = await read({ model: "m", stream: true });
    expect(withoutUsage).not.toContain("prompt_tokens");
    expect(fragments("abcdefghij")).toEqual(["abcdefg", "hij"]);
  });
});
