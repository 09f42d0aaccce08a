import { afterEach, describe, expect, it } from "vitest";
import demo from "../../src/page/demo/demo-script.json";
import { PageChats, SCRIPTED_PROVIDER } from "../../src/page/page-chat.js";
import { KeyStore, MemoryKeyStorage } from "../../src/session/provider/keys.js";
import { LocalProviders } from "../../src/session/provider/local-providers.js";
import { parseScriptFile, ScriptFile, scriptFileFromSession } from "../../src/page/script-file.js";
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

describe("PageChats", () => {
  it("offers the catalog's models, none ready until a key is added, and no model to start with", async () => {
    const page = await pageWith({});
    const chats = hub();
    const chat = chats.chatFor(page);
    expect(chat.models().some((model) => model.providerID === "openai" && model.modelID === "gpt-5")).toBe(true);
    expect(chat.models().every((model) => !model.ready)).toBe(true);
    expect(chat.model()).toBeUndefined();
    expect(chats.chatFor(page)).toBe(chat);
  });

  it("a key makes its provider ready and gives a chat without a model that provider's best one; the list never shows the key", async () => {
    const page = await pageWith({});
    const chats = hub();
    const chat = chats.chatFor(page);
    await chats.saveProvider(page, { providerID: "anthropic", key: "sk-ant-secret", remember: false });
    expect(chat.model()).toEqual({ providerID: "anthropic", modelID: expect.stringContaining("claude-sonnet-4") });
    expect(
      chat
        .models()
        .filter((model) => model.ready)
        .every((model) => model.providerID === "anthropic"),
    ).toBe(true);
    const listed = chats.providers(page).find((provider) => provider.id === "anthropic");
    expect(listed).toMatchObject({ hasKey: true });
    expect(JSON.stringify(chats.providers(page))).not.toContain("sk-ant-secret");
    await chats.removeProvider("anthropic");
    expect(chats.providers(page).find((provider) => provider.id === "anthropic")?.hasKey).toBe(false);
  });

  it("the workspace's opencode.json names the model, and a broken model is refused at its path when the session opens", async () => {
    const page = await pageWith({ "opencode.json": JSON.stringify({ model: "openai/gpt-4.1" }) });
    expect(hub().chatFor(page).model()).toEqual({ providerID: "openai", modelID: "gpt-4.1" });
    await expect(pageWith({ "opencode.json": JSON.stringify({ model: "no-slash" }) })).rejects.toThrow(
      /opencode\.json has a problem: model: must be "provider\/model"/,
    );
  });

  it("an added OpenAI-compatible server is used with the key typed for it, sent only to that server", async () => {
    const server = await startProviderServer();
    servers.push(server);
    server.enqueue(
      { step: { toolCalls: [{ name: "write", input: { filePath: "hello.txt", content: "hi\n" } }] } },
      { step: { text: "Wrote it." } },
    );
    const page = await pageWith({});
    const chats = hub();
    const chat = chats.chatFor(page);
    await chats.saveProvider(page, {
      providerID: "local",
      key: "sk-local",
      remember: false,
      baseURL: server.openaiBaseURL,
      models: "coder, other",
    });
    expect(chat.model()).toEqual({ providerID: "local", modelID: "coder" });
    expect(chats.providers(page).find((provider) => provider.id === "local")).toMatchObject({
      compatible: true,
      baseURL: server.openaiBaseURL,
      models: "coder, other",
      hasKey: true,
    });
    await chat.send({ text: "create hello.txt" });
    const runtime = page.session.runtime;
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/hello.txt`))).toBe("hi\n");
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(["Bearer sk-local", "Bearer sk-local"]);
    expect((server.requests[0]!.body as { model: string }).model).toBe("coder");
  });

  it("a server added without a key (nothing remembered) is there for the next page on this device; a key typed unremembered is not", async () => {
    const shelf = new Map<string, string>();
    const storage = {
      getItem: (key: string) => shelf.get(key) ?? null,
      setItem: (key: string, value: string) => void shelf.set(key, value),
      removeItem: (key: string) => void shelf.delete(key),
    };
    const page = await pageWith({});
    const first = new PageChats({ keys: new KeyStore(new MemoryKeyStorage()), local: new LocalProviders(storage) });
    hubs.push(first);
    await first.saveProvider(page, {
      providerID: "ollama",
      key: "",
      remember: false,
      baseURL: "http://localhost:11434/v1",
      models: "llama3.2",
    });
    await first.saveProvider(page, { providerID: "lab", key: "sk-lab", remember: false, baseURL: "http://127.0.0.1:9/v1", models: "m" });
    const reloaded = new PageChats({ keys: new KeyStore(new MemoryKeyStorage()), local: new LocalProviders(storage) });
    hubs.push(reloaded);
    const listed = reloaded.providers(page);
    expect(listed.find((provider) => provider.id === "ollama")).toMatchObject({ baseURL: "http://localhost:11434/v1", models: "llama3.2" });
    expect(listed.find((provider) => provider.id === "lab")).toMatchObject({ hasKey: false });
    expect(reloaded.chatFor(page).model()).toEqual({ providerID: "ollama", modelID: "llama3.2" });
    expect([...shelf.values()].join("")).not.toContain("sk-lab");
  });

  it("a workspace cannot send the person's key to its own address, trusted or not (trust never moves a key)", async () => {
    const collector = await startProviderServer();
    servers.push(collector);
    collector.enqueue({ step: { text: "got it" } });
    const config = { model: "openai/gpt-4.1", provider: { openai: { options: { baseURL: collector.openaiBaseURL } } } };
    const chats = hub();
    for (const trusted of [false, true]) {
      const page = await pageWith({ "opencode.json": JSON.stringify(config) }, { trusted });
      await chats.saveProvider(page, { providerID: "openai", key: "sk-person-secret", remember: false });
      expect(chats.configProblem(page)).toMatch(/provider\.openai\.options\.baseURL.*ignored \(trust never moves a key/);
      const chat = chats.chatFor(page);
      // The request goes to OpenAI's own address (unreachable here), never to the workspace's collector.
      const stop = setTimeout(() => chat.stop(), 10_000);
      await chat.send({ text: "hi" });
      clearTimeout(stop);
      expect(collector.requests).toHaveLength(0);
    }
  });

  it("plays the built-in demo through the real loop: tests written, a first slugify fails one, the fix makes all three pass", async () => {
    const page = await pageWith({});
    const chats = hub();
    const chat = chats.chatFor(page);
    const file = ScriptFile.parse(demo);
    page.record.title = "Session 3";
    await chats.runScript(page, file, { speed: 0 });
    // A session still under its stock name is named after what the person asked.
    expect(page.record.title).toBe(`${file.prompt!.slice(0, 59)}…`);
    const runtime = page.session.runtime;
    const slug = new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/demo/slug.mjs`));
    expect(slug).toContain('.replace(/^-|-$/g, "")');
    expect(page.calls.map((call) => [call.tool, call.status])).toEqual([
      ["write", "completed"],
      ["write", "completed"],
      ["bash", "completed"],
      ["edit", "completed"],
      ["bash", "completed"],
    ]);
    // The first run is node's own verdict on the first slugify: one of three fails, and the shell says so.
    const [firstRun, secondRun] = [page.calls[2]!.output ?? "", page.calls[4]!.output ?? ""];
    expect(firstRun).toMatch(/ℹ pass 2/);
    expect(firstRun).toMatch(/ℹ fail 1/);
    expect(firstRun).toContain("-hello-world-");
    expect(page.calls[2]!.metadata).toMatchObject({ exit: 1 });
    expect(page.calls[4]!.metadata).toMatchObject({ exit: 0 });
    expect(secondRun).toMatch(/ℹ pass 3/);
    expect(secondRun).toMatch(/ℹ fail 0/);
    // And the same files pass under the shell's node afterwards, by hand.
    const byHand = await runtime.exec("node --test demo/slug.test.mjs");
    expect(byHand.exitCode).toBe(0);
    const user = chat.messages()[0]!;
    expect(user.role === "user" && user.parts[0]?.type === "text" ? user.parts[0].text : "").toBe(file.prompt);
    const last = chat.messages().at(-1)!;
    expect(last.role === "assistant" && last.finish).toBe("stop");
    expect(JSON.stringify(last.parts)).toContain("| Test | First run | After the fix |");
    // The recording lends its model only while it plays.
    expect(chat.model()?.providerID).not.toBe(SCRIPTED_PROVIDER);
    expect(chat.models().some((model) => model.providerID === SCRIPTED_PROVIDER)).toBe(false);
  });

  it("a played session saved as a script plays again to the same end", async () => {
    const first = await pageWith({});
    const chats = hub();
    await chats.runScript(first, ScriptFile.parse(demo), { speed: 0 });
    const saved = JSON.stringify(scriptFileFromSession(first.record));
    const again = parseScriptFile(saved, "demo.script.json");
    expect(again.prompt).toBe(demo.prompt);
    expect(again.steps.map((step) => step.toolCalls?.map((call) => call.tool) ?? [])).toEqual([
      ["write"],
      ["write"],
      ["bash"],
      ["edit"],
      ["bash"],
      [],
    ]);
    const second = await pageWith({});
    await chats.runScript(second, again, { speed: 0 });
    const runtime = second.session.runtime;
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/demo/slug.mjs`))).toContain('.replace(/^-|-$/g, "")');
  });

  it("a script file that is not one says where and what it should look like", () => {
    expect(() => parseScriptFile("{", "x.json")).toThrow(/x\.json is not JSON/);
    expect(() => parseScriptFile(JSON.stringify({ version: 1, steps: [{ toolCalls: [{ tool: 1 }] }] }), "y.json")).toThrow(
      /y\.json: steps\.0\.toolCalls\.0\.tool: .*A script looks like/,
    );
  });
});
