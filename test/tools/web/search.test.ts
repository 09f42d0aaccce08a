/**
 * websearch and codesearch against a local Exa stand-in (the official MCP SDK's server over streamable HTTP,
 * called as OpenCode calls Exa: a bare tools/call answered as SSE): the arguments sent, the answer's text,
 * the fallback when nothing is found, the provider/flag gate, an unreachable endpoint, and Stop.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sessionWith } from "../../support/tool-session.js";
import { startExaStandIn, type ExaStandIn } from "../../support/mcp-server.js";
import { startWebServer } from "../../support/web-server.js";
import { nodeWebAccess } from "../../../src/session/host/node-web.js";

let exa: ExaStandIn;
beforeAll(async () => {
  exa = await startExaStandIn((tool, args) =>
    String(args.query).includes("nothing") ? undefined : `${tool} found: ${String(args.query)}`,
  );
});
afterAll(() => exa.close());

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

async function open(exaUrl: string, flags: { enableExa?: boolean } = { enableExa: true }) {
  const s = await sessionWith({}, { web: nodeWebAccess({ exaUrl }), flags });
  dispose = s.dispose;
  return s.session;
}

describe("websearch and codesearch", () => {
  it("websearch sends OpenCode's arguments and returns the first text", async () => {
    const session = await open(exa.url);
    const call = await session.run("websearch", { query: "solid-js 2 release" });
    expect(call.error).toBeUndefined();
    expect(call.title).toBe("Web search: solid-js 2 release");
    expect(call.output).toBe("web_search_exa found: solid-js 2 release");
    expect(exa.calls.at(-1)).toEqual({
      tool: "web_search_exa",
      args: { query: "solid-js 2 release", type: "auto", numResults: 8, livecrawl: "fallback" },
    });
  });

  it("codesearch sends tokensNum (5000 by default) and falls back when nothing is found", async () => {
    const session = await open(exa.url);
    const found = await session.run("codesearch", { query: "zod discriminated union" });
    expect(found.title).toBe("Code search: zod discriminated union");
    expect(found.output).toBe("get_code_context_exa found: zod discriminated union");
    expect(exa.calls.at(-1)!.args).toEqual({ query: "zod discriminated union", tokensNum: 5000 });
    const none = await session.run("codesearch", { query: "nothing at all", tokensNum: 2000 });
    expect(none.output).toMatch(/^No code snippets or documentation found\./);
    const search = await session.run("websearch", { query: "nothing here" });
    expect(search.output).toBe("No search results found. Please try a different query.");
  });

  it("rejects tokensNum outside 1000-50000", async () => {
    const session = await open(exa.url);
    const call = await session.run("codesearch", { query: "x", tokensNum: 60000 });
    expect(call.status).toBe("error");
    expect(call.error).toContain("tokensNum");
  });

  it("is offered only to the opencode provider or with the Exa flag", async () => {
    const off = await open(exa.url, { enableExa: false });
    const ids = (model: string) => off.registry.tools({ providerID: model, modelID: "m" }).then((tools) => tools.map((t) => t.id));
    expect(await ids("anthropic")).not.toContain("websearch");
    expect(await ids("opencode")).toEqual(expect.arrayContaining(["websearch", "codesearch"]));
    await dispose?.();
    const on = await open(exa.url, { enableExa: true });
    const all = (await on.registry.tools({ providerID: "anthropic", modelID: "m" })).map((t) => t.id);
    expect(all).toEqual(expect.arrayContaining(["websearch", "codesearch"]));
  });

  it("says the service is unreachable instead of hanging", async () => {
    const closed = await startWebServer({});
    await closed.close();
    const session = await open(`${closed.url}/mcp`);
    const call = await session.run("websearch", { query: "anything" });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/^Search service at 127\.0\.0\.1:\d+ is unreachable: Could not reach/);
  });

  it("reports the endpoint's error status with its text", async () => {
    const broken = await startWebServer({
      "/mcp": (_q, r) => r.writeHead(503, { "content-type": "text/plain" }).end("down for maintenance"),
    });
    try {
      const session = await open(`${broken.url}/mcp`);
      const call = await session.run("codesearch", { query: "x" });
      expect(call.error).toBe("Code search error (503): down for maintenance");
    } finally {
      await broken.close();
    }
  });

  it("ends on Stop while the endpoint does not answer", async () => {
    let started = 0;
    const hanging = await startWebServer({ "/mcp": () => void started++ });
    try {
      const session = await open(`${hanging.url}/mcp`);
      const controller = new AbortController();
      const done = session.run("websearch", { query: "x" }, { signal: controller.signal });
      await expect.poll(() => started).toBe(1);
      controller.abort(new Error("stopped"));
      const call = await done;
      expect(call.status).toBe("error");
      expect(call.error).toContain("stopped");
    } finally {
      await hanging.close();
    }
  });
});
