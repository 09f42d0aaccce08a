/**
 * A conversation of several turns saved as a script (and replayed from it) keeps every turn, in order,
 * with its calls: the session a real provider (a loopback OpenAI-compatible server) answered is the
 * oracle the replay is compared with.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PageChats } from "../../src/page/page-chat.js";
import { parseScriptFile, scriptFileFromSession } from "../../src/page/script-file.js";
import type { PageTools } from "../../src/page/page-tools.js";
import { KeyStore, MemoryKeyStorage } from "../../src/session/provider/keys.js";
import { LocalProviders } from "../../src/session/provider/local-providers.js";
import { disposePages, pageWith } from "../support/page-tools.js";
import { startProviderServer, type ProviderServer } from "../support/provider-server.js";

const servers: ProviderServer[] = [];
const hubs: PageChats[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) hub.dispose();
  for (const server of servers.splice(0)) await server.close();
  await disposePages();
});

function hub(): PageChats {
  const made = new PageChats({ keys: new KeyStore(new MemoryKeyStorage()), local: new LocalProviders() });
  hubs.push(made);
  return made;
}

/** What the person said and which calls ran, in order: the shape a replay must keep. */
function story(page: PageTools): string[] {
  const lines: string[] = [];
  for (const message of page.record.messages) {
    for (const part of message.parts) {
      if (message.role === "user" && part.type === "text" && !part.synthetic) lines.push(`user: ${part.text}`);
      if (part.type === "tool") {
        const call = page.calls.find((c) => c.id === part.callID);
        lines.push(`${part.tool} ${JSON.stringify(call?.input)} ${call?.status}`);
      }
    }
  }
  return lines;
}

const read = (page: PageTools, path: string) =>
  page.session.runtime.fs.readFile(`${page.session.runtime.root}/${path}`).then((bytes) => new TextDecoder().decode(bytes));

describe("a script of several turns", () => {
  it("a three-turn session with four calls is saved and replays every turn, in order, with its calls", async () => {
    const server = await startProviderServer();
    servers.push(server);
    server.enqueue(
      { step: { toolCalls: [{ name: "write", input: { filePath: "a.txt", content: "one\n" } }] } },
      { step: { text: "Wrote a.txt." } },
      {
        step: {
          toolCalls: [
            { name: "read", input: { filePath: "a.txt" } },
            { name: "write", input: { filePath: "b.txt", content: "two\n" } },
          ],
        },
      },
      { step: { text: "Read it and wrote b.txt." } },
      { step: { toolCalls: [{ name: "bash", input: { command: "cat a.txt b.txt > c.txt", description: "Joins them" } }] } },
      { step: { text: "Joined." } },
    );
    const original = await pageWith({ "opencode.json": JSON.stringify({ permission: { bash: "allow" } }) });
    const chats = hub();
    await chats.saveProvider(original, { providerID: "local", key: "", remember: false, baseURL: server.openaiBaseURL, models: "coder" });
    const chat = chats.chatFor(original);
    for (const text of ["write a.txt", "read it, then write b.txt", "join them into c.txt"]) await chat.send({ text });
    expect(story(original)).toHaveLength(7);

    const file = parseScriptFile(JSON.stringify(scriptFileFromSession(original.record)), "three.script.json");
    expect(file.prompt).toBe("write a.txt");
    expect(file.turns?.map((turn) => turn.prompt)).toEqual(["read it, then write b.txt", "join them into c.txt"]);

    const replay = await pageWith({ "opencode.json": JSON.stringify({ permission: { bash: "allow" } }) });
    await chats.runScript(replay, file, { speed: 0 });
    expect(story(replay)).toEqual(story(original));
    expect(await read(replay, "c.txt")).toBe("one\ntwo\n");
    // No request reached the server during the replay: the recording answered.
    expect(server.requests).toHaveLength(6);
  });

  it("a stopped turn ends the playing: the later turns are not sent", async () => {
    const file = parseScriptFile(
      JSON.stringify({
        version: 1,
        prompt: "first",
        steps: [{ toolCalls: [{ tool: "bash", input: { command: "echo x > x.txt", description: "Writes x" } }] }, { text: "done" }],
        turns: [{ prompt: "second", steps: [{ toolCalls: [{ tool: "write", input: { filePath: "y.txt", content: "y" } }] }] }],
      }),
    );
    const page = await pageWith({ "opencode.json": JSON.stringify({ permission: { bash: "ask" } }) });
    const chats = hub();
    const chat = chats.chatFor(page);
    const stop = page.onPromptsChanged(() => {
      if (page.pending().length > 0) chat.stop();
    });
    await chats.runScript(page, file, { speed: 0 });
    stop();
    expect(story(page).filter((line) => line.startsWith("user: "))).toEqual(["user: first"]);
    await expect(read(page, "y.txt")).rejects.toThrow();
  });

  it("a plain script without turns plays as one turn, as before", async () => {
    const page = await pageWith({});
    const chats = hub();
    await chats.runScript(page, parseScriptFile(JSON.stringify({ version: 1, steps: [{ text: "hello" }] })), { speed: 0 });
    expect(story(page)).toEqual(["user: Replay the recorded conversation."]);
    expect(page.record.messages.filter((message) => message.role === "assistant")).toHaveLength(1);
  });
});
