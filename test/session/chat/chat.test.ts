import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { Chat, type ChatOptions } from "../../../src/session/chat/chat.js";
import type { ChatStatus } from "../../../src/session/chat/chat-view.js";
import { ScriptedLanguageModel, type Script } from "../../../src/session/provider/scripted.js";
import { MemoryShelf, ShelfSessionStore } from "../../../src/session/record/key-value-session-store.js";
import { assistants, resolved, testAgent, texts } from "../../support/loop.js";
import { sessionWith } from "../../support/tool-session.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

async function chatOn(script: Script, options: Partial<ChatOptions> & { speed?: number; files?: Record<string, string> } = {}) {
  const shelf = new MemoryShelf();
  const store = new ShelfSessionStore(shelf);
  const made = await sessionWith(options.files ?? {}, { store });
  disposers.push(made.dispose);
  const language = new ScriptedLanguageModel(script, { speed: options.speed ?? 0 });
  const systems: string[] = [];
  const chat = new Chat({
    tools: made.session,
    agents: [testAgent("build"), testAgent("plan"), testAgent("compaction", { hidden: true, mode: "primary" })],
    resolveModel: async (ref) => resolved(language, ref),
    system: async (agent, model) => {
      systems.push(`${agent.name} on ${model.modelID}`);
      return [`You are ${agent.name}.`];
    },
    model: { providerID: "scripted", modelID: "demo" },
    store,
    saveDelayMs: 5,
    ...options,
  });
  return { chat, shelf, store, language, systems, ...made };
}

describe("Chat", () => {
  it("sends a message, runs the agent, notifies, and saves the whole conversation", async () => {
    const { chat, runtime, shelf, systems } = await chatOn({
      version: 1,
      steps: [
        { toolCalls: [{ tool: "write", input: { filePath: "/workspace/hello.txt", content: "hi\n" } }] },
        { text: "Wrote hello.txt." },
      ],
    });
    const statuses: ChatStatus["type"][] = [];
    let completedBeforeItsStep = false;
    chat.onChange(() => {
      if (statuses.at(-1) !== chat.status().type) statuses.push(chat.status().type);
      const step = chat.messages()[1];
      const part = step?.parts.find((p) => p.type === "tool");
      const call = part?.type === "tool" ? chat.call(part.callID) : undefined;
      if (call?.status === "completed" && step?.role === "assistant" && step.time.completed === undefined) completedBeforeItsStep = true;
    });
    await chat.send({ text: "write hello.txt" });
    expect(statuses[0]).toBe("busy");
    // The page hears about the call itself, not only when its step ends.
    expect(completedBeforeItsStep).toBe(true);
    expect(statuses.at(-1)).toBe("idle");
    expect(chat.status()).toEqual({ type: "idle" });
    expect(systems).toEqual(["build on demo"]);
    expect(chat.messages().map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
    expect(texts(chat.messages())).toEqual(["write hello.txt", "Wrote hello.txt."]);
    const part = chat.messages()[1]!.parts.find((p) => p.type === "tool");
    expect(part && part.type === "tool" && chat.call(part.callID)?.status).toBe("completed");
    expect(new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/hello.txt`))).toBe("hi\n");

    // A fresh store over the same storage (a reload) finds the same conversation.
    const reloaded = await new ShelfSessionStore(shelf).load(chat.sessionID);
    expect(reloaded?.title).toBe("write hello.txt");
    expect(reloaded?.messages).toEqual(JSON.parse(JSON.stringify(chat.messages())));
    expect(reloaded?.calls.map((c) => c.status)).toEqual(["completed"]);
  });

  it("marks an answer interrupted when the page reloads mid-answer, losing nothing else", async () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const { chat, shelf } = await chatOn({ version: 1, steps: [{ text: words }] }, { speed: 0.2 });
    const sent = chat.send({ text: "talk" });
    // Wait until a save holds part of the answer, as a reload would find it.
    let saved = "";
    for (let i = 0; i < 400 && !saved.includes("word3"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const keys = await shelf.keys(`message:${chat.sessionID}:`);
      saved = (await Promise.all(keys.map((key) => shelf.get(key)))).join("\n");
    }
    const reloaded = await new ShelfSessionStore(shelf).load(chat.sessionID);
    chat.stop();
    await sent;
    expect(reloaded).toBeDefined();
    const [user, answer] = reloaded!.messages;
    expect(user).toMatchObject({ role: "user" });
    expect(texts([user!])).toEqual(["talk"]);
    expect(answer).toMatchObject({ role: "assistant", error: { kind: "interrupted" } });
    expect(answer!.role === "assistant" && answer!.time.completed).toBeGreaterThan(0);
    const partial = texts([answer!])[0]!;
    expect(partial.startsWith("word0 word1 word2 word3")).toBe(true);
    expect(partial).not.toContain("word59");
  });

  it("stops a run at once, keeping what was said, and answers the next message", async () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const { chat } = await chatOn({ version: 1, steps: [{ text: words }, { text: "Second answer." }] }, { speed: 0.5 });
    const off = chat.onChange(() => {
      if (!texts(assistants(chat.messages())).join("").includes("word5")) return;
      off();
      chat.stop();
    });
    await chat.send({ text: "talk" });
    const answer = assistants(chat.messages())[0]!;
    expect(answer.role === "assistant" && answer.error?.kind).toBe("aborted");
    expect(texts([answer])[0]).toContain("word5");
    await chat.send({ text: "again" });
    expect(texts(assistants(chat.messages())).at(-1)).toBe("Second answer.");
  });

  it("queues a message sent while busy and answers it after the current one", async () => {
    const { chat } = await chatOn(
      { version: 1, steps: [{ text: "first answer with a few words" }, { text: "second answer" }] },
      { speed: 1 },
    );
    const first = chat.send({ text: "one" });
    const second = chat.send({ text: "two" });
    await Promise.all([first, second]);
    expect(chat.messages().map((m) => [m.role, texts([m])[0]])).toEqual([
      ["user", "one"],
      ["assistant", "first answer with a few words"],
      ["user", "two"],
      ["assistant", "second answer"],
    ]);
  });

  it("answers with the reason when the model cannot be resolved", async () => {
    const { chat } = await chatOn(
      { version: 1, steps: [] },
      { resolveModel: async () => Promise.reject(new Error("No key for provider openai: add one in Providers.")) },
    );
    await chat.send({ text: "hi" });
    const answer = chat.messages()[1]!;
    expect(answer).toMatchObject({
      role: "assistant",
      error: { kind: "model", message: "No key for provider openai: add one in Providers." },
    });
    expect(chat.status().type).toBe("idle");
  });

  it("offers only primary, visible agents, and refuses an unknown one", async () => {
    const { chat } = await chatOn({ version: 1, steps: [] });
    expect(chat.agents().map((a) => a.name)).toEqual(["build", "plan"]);
    chat.setAgent("plan");
    expect(chat.agent()).toBe("plan");
    expect(() => chat.setAgent("nope")).toThrow(/unknown agent "nope"/);
  });

  it("puts an attached workspace text file into the message as text", async () => {
    const { chat, language } = await chatOn(
      { version: 1, steps: [{ text: "seen" }] },
      { files: { "notes.md": "# Notes\nremember milk\n" } },
    );
    await chat.send({
      text: "summarise",
      attachments: [{ mime: "text/markdown", filename: "notes.md", url: "file:///workspace/notes.md" }],
    });
    const user = chat.messages()[0]!;
    expect(user.parts.map((p) => p.type)).toEqual(["text", "file", "text"]);
    expect(texts([user]).join("\n")).toContain("remember milk");
    expect(language.calls).toBe(1);
  });

  it("answers a message whose attachment is gone with an attachment error, and the queue goes on", async () => {
    const { chat } = await chatOn(
      { version: 1, steps: [{ text: "a long answer with many words in it to be slow" }, { text: "third answered" }] },
      { speed: 1 },
    );
    const log: string[] = [];
    const first = chat.send({ text: "A" }).then(
      () => log.push("A resolved"),
      (error: unknown) => log.push(`A rejected: ${String(error)}`),
    );
    while (chat.status().type !== "busy") await new Promise((resolve) => setTimeout(resolve, 1));
    const second = chat.send({ text: "B", attachments: [{ mime: "text/plain", filename: "gone.txt", url: "file:///workspace/gone.txt" }] });
    const third = chat.send({ text: "C" });
    await Promise.all([first, second, third]);
    expect(log).toEqual(["A resolved"]);
    const answerToB = chat.messages().find((m) => m.role === "assistant" && m.error !== undefined);
    expect(answerToB?.role === "assistant" && answerToB.error).toMatchObject({
      kind: "attachment",
      message: "the attached file /workspace/gone.txt no longer exists",
    });
    expect(answerToB?.role === "assistant" && answerToB.error?.hint).toMatch(/Attach it again/);
    expect(texts(chat.messages())).toContain("third answered");
    expect(texts(chat.messages().filter((m) => m.role === "user"))).toEqual(["A", "B", "C"]);
  });

  it("refuses attachments outside the workspace, through a link, or too large, with a clear answer", async () => {
    const { chat, runtime, language } = await chatOn(
      { version: 1, steps: [] },
      { files: { "a.txt": "hello\n", "big.txt": "x".repeat(300 * 1024) } },
    );
    await runtime.fs.mkdir("/elsewhere", { recursive: true });
    await runtime.fs.writeFile("/elsewhere/secret.txt", "TOP-SECRET-CONTENT\n");
    await runtime.fs.symlink("/elsewhere/secret.txt", "/workspace/link.txt");
    const errors: Array<string | undefined> = [];
    const urls = [
      "file:///../elsewhere/secret.txt",
      "file:///workspace/../elsewhere/secret.txt",
      "file:///workspace/%2e%2e/elsewhere/secret.txt",
      "file:///link.txt",
      "file:///workspace/big.txt",
      "file:///etc/passwd",
    ];
    for (const url of urls) {
      await chat.send({ text: "look", attachments: [{ mime: "text/plain", filename: "x", url }] });
      const last = chat.messages().at(-1)!;
      errors.push(last.role === "assistant" ? last.error?.message : undefined);
    }
    expect(errors).toEqual([
      "the attached file /elsewhere/secret.txt is outside the workspace (/workspace)",
      "the attached file /elsewhere/secret.txt is outside the workspace (/workspace)",
      "the attached file /elsewhere/secret.txt is outside the workspace (/workspace)",
      "the attached file /workspace/link.txt is outside the workspace (/workspace)",
      "the attached file /workspace/big.txt is too large (300 KB; text files may be at most 256 KB)",
      // Paths are named from the workspace root, so this one is the workspace's own etc/passwd.
      "the attached file /workspace/etc/passwd no longer exists",
    ]);
    expect(JSON.stringify(chat.messages())).not.toContain("TOP-SECRET-CONTENT");
    expect(language.calls).toBe(0);
  });

  it("sends a binary attachment as a base64 data: URL, byte for byte", async () => {
    const { chat, runtime } = await chatOn({ version: 1, steps: [{ text: "seen" }] });
    const bytes = new Uint8Array(200_003).map((_, i) => (i * 7919) % 256);
    await runtime.fs.writeFile("/workspace/pic.png", bytes);
    await chat.send({ text: "look", attachments: [{ mime: "image/png", filename: "pic.png", url: "file:///workspace/pic.png" }] });
    const file = chat.messages()[0]!.parts.find((p) => p.type === "file");
    expect(file?.type === "file" && file.url).toBe(`data:image/png;base64,${Buffer.from(bytes).toString("base64")}`);
  });

  it("reads @path attachments named from the workspace root: text into the message, an image as bytes the model is sent", async () => {
    const prompts: LanguageModelV4CallOptions["prompt"][] = [];
    class Recording extends ScriptedLanguageModel {
      override doStream(options: LanguageModelV4CallOptions) {
        prompts.push(options.prompt);
        return super.doStream(options);
      }
    }
    const language = new Recording({ version: 1, steps: [{ text: "seen" }] }, { speed: 0 });
    const { chat, runtime } = await chatOn(
      { version: 1, steps: [] },
      { files: { "docs/notes.md": "remember milk\n" }, resolveModel: async () => resolved(language, { attachment: true }) },
    );
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await runtime.fs.writeFile(`${runtime.root}/logo.png`, png);
    await chat.send({
      text: "look",
      attachments: [
        { mime: "text/markdown", filename: "docs/notes.md", url: "file:///docs/notes.md" },
        { mime: "image/png", filename: "logo.png", url: "file:///logo.png" },
      ],
    });
    const user = chat.messages()[0]!;
    const image = user.parts.find((part) => part.type === "file" && part.mime === "image/png");
    expect(image).toMatchObject({ url: `data:image/png;base64,${Buffer.from(png).toString("base64")}` });
    expect(texts([user]).join("\n")).toContain(`Attached file ${runtime.root}/docs/notes.md`);
    const sent = prompts[0]!.find((message) => message.role === "user");
    const content = sent?.role === "user" ? sent.content : [];
    expect(content.some((part) => part.type === "text" && part.text.includes("remember milk"))).toBe(true);
    const file = content.find((part) => part.type === "file");
    expect(file?.type === "file" ? file.mediaType : undefined).toBe("image/png");
    // However the SDK wraps the bytes, they are the file's own.
    const data = JSON.stringify(file);
    expect(
      data.includes(Buffer.from(png).toString("base64")) ||
        data.includes(JSON.stringify(Object.fromEntries([...png].map((byte, index) => [String(index), byte]))).slice(1, -1)),
    ).toBe(true);
  });
});
