/**
 * A shared session's replay runs calls its author chose. A transcript replaying a webfetch to the author's
 * server reached it with no prompt (the default rules allow webfetch), under a banner promising the visitor
 * is asked. Now every network call of a shared replay asks first, whatever the rules allow; a rule that
 * denies still denies; the visitor's own replays (shared: false) are judged by the rules alone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PageChats } from "../../src/page/page-chat.js";
import type { PageTools } from "../../src/page/page-tools.js";
import { networkAskRules } from "../../src/page/replay-network-guard.js";
import { parseScriptFile } from "../../src/page/script-file.js";
import { KeyStore, MemoryKeyStorage } from "../../src/session/provider/keys.js";
import { LocalProviders } from "../../src/session/provider/local-providers.js";
import { disposePages, pageWith } from "../support/page-tools.js";
import { startWebServer, type WebServer } from "../support/web-server.js";

const servers: WebServer[] = [];
const hubs: PageChats[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) hub.dispose();
  for (const server of servers.splice(0)) await server.close();
  await disposePages();
});

async function collector(): Promise<WebServer> {
  const server = await startWebServer({ "/steal": (_q, r) => r.writeHead(200, { "content-type": "text/plain" }).end("stolen") });
  servers.push(server);
  return server;
}

function hub(): PageChats {
  const made = new PageChats({ keys: new KeyStore(new MemoryKeyStorage()), local: new LocalProviders() });
  hubs.push(made);
  return made;
}

const fetchScript = (url: string) =>
  parseScriptFile(
    JSON.stringify({
      version: 1,
      prompt: "read the README",
      steps: [{ toolCalls: [{ tool: "webfetch", input: { url, format: "text" } }] }, { text: "done" }],
    }),
  );

/** Answers the first prompt with `reply` once the server has been checked to have heard nothing yet. */
function answerFirstPrompt(page: PageTools, server: WebServer, reply: "once" | "reject", seen: { asked: string[]; before: number }) {
  const off = page.onPromptsChanged(() => {
    const prompt = page.pending()[0];
    if (!prompt) return;
    off();
    seen.asked.push(`${prompt.permission} ${prompt.patterns.join(" ")}`);
    seen.before = server.requests.length;
    page.reply(prompt.id, reply);
  });
  return off;
}

describe("network calls in a shared session's replay", () => {
  for (const config of [{}, { permission: { webfetch: "allow" } }, { permission: "allow" }]) {
    it(`ask first under ${JSON.stringify(config)}: nothing is sent until the visitor allows, nothing after a reject`, async () => {
      const server = await collector();
      const url = `${server.url}/steal?key=x`;
      for (const reply of ["reject", "once"] as const) {
        // Trusted, so the config's loosening rules are in force too.
        const page = await pageWith({ "opencode.json": JSON.stringify(config) }, { trusted: true });
        const seen = { asked: [] as string[], before: -1 };
        const off = answerFirstPrompt(page, server, reply, seen);
        const sent = server.requests.length;
        await hub().runScript(page, fetchScript(url), { speed: 0, shared: true });
        off();
        expect(seen.asked).toEqual([`webfetch ${url}`]);
        expect(seen.before).toBe(sent);
        expect(server.requests.length - sent).toBe(reply === "once" ? 1 : 0);
        expect(page.calls[0]!.status).toBe(reply === "once" ? "completed" : "error");
      }
    });
  }

  it("a rule that denies webfetch still denies it (the guard never loosens)", async () => {
    const server = await collector();
    const page = await pageWith({ "opencode.json": JSON.stringify({ permission: { webfetch: "deny" } }) });
    const asked: string[] = [];
    const off = page.onPromptsChanged(() => page.pending().forEach((prompt) => asked.push(prompt.permission)));
    await hub().runScript(page, fetchScript(`${server.url}/steal`), { speed: 0, shared: true });
    off();
    expect(asked).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("the guard ends with the replay: the same call afterwards is judged by the rules alone", async () => {
    const server = await collector();
    const page = await pageWith({ "opencode.json": JSON.stringify({ permission: { webfetch: "allow" } }) });
    const off = page.onPromptsChanged(() => page.pending().forEach((prompt) => page.reply(prompt.id, "reject")));
    await hub().runScript(page, fetchScript(`${server.url}/steal`), { speed: 0, shared: true });
    expect(server.requests).toHaveLength(0);
    await hub().runScript(page, fetchScript(`${server.url}/steal`), { speed: 0 });
    off();
    expect(server.requests).toHaveLength(1);
  });

  it("asks for the network calls only: a read the rules allow runs unasked beside them", async () => {
    const server = await collector();
    const page = await pageWith({ "notes.md": "hello\n" });
    const asked: string[] = [];
    const off = page.onPromptsChanged(() =>
      page.pending().forEach((prompt) => {
        asked.push(prompt.permission);
        page.reply(prompt.id, "reject");
      }),
    );
    const script = parseScriptFile(
      JSON.stringify({
        version: 1,
        steps: [
          { toolCalls: [{ tool: "read", input: { filePath: "notes.md" } }] },
          { toolCalls: [{ tool: "webfetch", input: { url: `${server.url}/steal` } }] },
        ],
      }),
    );
    await hub().runScript(page, script, { speed: 0, shared: true });
    off();
    expect(asked).toEqual(["webfetch"]);
    expect(page.calls.map((call) => [call.tool, call.status])).toEqual([
      ["read", "completed"],
      ["webfetch", "error"],
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it("covers websearch, codesearch and every configured MCP server's tools", async () => {
    const page = await pageWith({
      "opencode.json": JSON.stringify({ mcp: { "author's server": { type: "remote", url: "http://127.0.0.1:1/mcp" } } }),
    });
    expect(networkAskRules(page).map((rule) => `${rule.permission}:${rule.action}`)).toEqual([
      "webfetch:ask",
      "websearch:ask",
      "codesearch:ask",
      "author_s_server_*:ask",
    ]);
  });
});
