/**
 * A provider's answer that redirects elsewhere must not take the key along: the real @ai-sdk/anthropic
 * package against a local server that redirects to a second local server, which records every header.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProvidersConfig } from "../../../src/session/provider/config.js";
import { resolveModel } from "../../../src/session/provider/factory.js";
import { keyScopedFetch } from "../../../src/session/provider/key-scoped-fetch.js";

const KEY = "sk-ant-redirect-secret-0123";

interface Local {
  url: string;
  seen: Array<{ path: string; headers: IncomingHttpHeaders }>;
  server: Server;
}

async function local(
  answer: (path: string, self: string) => { status: number; headers?: Record<string, string>; body?: string },
): Promise<Local> {
  const seen: Local["seen"] = [];
  let self = "";
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const path = request.url ?? "/";
      seen.push({ path, headers: request.headers });
      const reply = answer(path, self);
      response.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: self, seen, server };
}

let elsewhere: Local;
let redirecting: Local;
beforeAll(async () => {
  elsewhere = await local(() => ({ status: 500, body: "should never be asked" }));
  redirecting = await local((path, self) => {
    if (path.startsWith("/same/")) return { status: 307, headers: { location: `${self}/final` } };
    if (path === "/final") return { status: 200, body: "arrived" };
    return { status: 307, headers: { location: `${elsewhere.url}${path}` } };
  });
});
afterAll(async () => {
  for (const { server } of [elsewhere, redirecting]) await new Promise((resolve) => server.close(resolve));
});

describe("redirects and the key", () => {
  it("a redirect to another host is refused through @ai-sdk/anthropic: the other host never sees x-api-key", async () => {
    const config = parseProvidersConfig({ provider: { anthropic: { options: { baseURL: `${redirecting.url}/v1` } } } });
    const resolved = await resolveModel("anthropic/claude-sonnet-4-5", { config, keys: { get: () => KEY } });
    const result = streamText({ model: resolved.language, prompt: "hi", maxRetries: 0, onError: () => {} });
    let failure: unknown;
    try {
      for await (const part of result.fullStream) if (part.type === "error") failure = part.error;
    } catch (error) {
      failure = error;
    }
    // The first server was asked, with the key (it is the configured base URL)...
    expect(redirecting.seen.some((request) => request.headers["x-api-key"] === KEY)).toBe(true);
    // ...the second never, with or without it.
    expect(elsewhere.seen.filter((request) => request.headers["x-api-key"] !== undefined)).toEqual([]);
    expect(elsewhere.seen).toEqual([]);
    expect(String((failure as Error)?.message ?? failure)).toMatch(/refused to follow anthropic's redirect to http:\/\/127\.0\.0\.1:\d+/);
  });

  it("a redirect within the base URL's origin is followed, with the request's headers", async () => {
    const scoped = keyScopedFetch({ providerID: "anthropic", baseURL: `${redirecting.url}/v1` });
    const before = redirecting.seen.length;
    const response = await scoped(`${redirecting.url}/same/start`, { method: "POST", body: "{}", headers: { "x-api-key": KEY } });
    expect(await response.text()).toBe("arrived");
    expect(redirecting.seen.slice(before).map((request) => [request.path, request.headers["x-api-key"]])).toEqual([
      ["/same/start", KEY],
      ["/final", KEY],
    ]);
  });
});
