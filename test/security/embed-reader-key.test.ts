/**
 * An embedding page must not spend the reader's key. After the reader picks a model and types its key into
 * the frame, a host's `vm.run(message)` went to the provider with it, unasked. Now each such message is
 * asked for in the frame (the host's origin, the message, the model; Allow once or Deny, never remembered)
 * and nothing reaches the chat before the reader allows it; the host's own script replays still run
 * without the reader.
 */
import { describe, expect, it } from "vitest";
import { FrameBackend, type HostMessageRequest } from "../../src/embed/frame-backend.js";
import type { PageChats } from "../../src/page/page-chat.js";
import type { PageTools } from "../../src/page/page-tools.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import { testSurface } from "../support/embed-surface.js";

describe("a host's run() and the reader's model", () => {
  /** A frame whose chat answers on the reader's model, and whose reader answers `answers` in turn. */
  async function frame(answers: boolean[], options: { switchModel?: boolean } = {}) {
    const sent: unknown[] = [];
    const asked: HostMessageRequest[] = [];
    let model = { providerID: "openai", modelID: "gpt-5" };
    const chat = { model: () => model, send: async (input: unknown) => void sent.push(input) };
    const runtime = createNodeRuntime({ root: process.cwd(), searchThreads: 0 });
    const backend = new FrameBackend(
      testSurface(() => runtime, {
        chats: async () => ({ chatFor: () => chat }) as unknown as PageChats,
        page: async () => ({}) as PageTools,
        askReader: async (request) => {
          asked.push(request);
          if (options.switchModel) model = { providerID: "anthropic", modelID: "claude" };
          return answers.shift() ?? false;
        },
      }),
      { host: () => "https://docs.example.com" },
    );
    return { backend, sent, asked, dispose: () => runtime.dispose() };
  }

  it("asks the reader, naming the host, the message and the model; a Deny sends nothing", async () => {
    const { backend, sent, asked, dispose } = await frame([false]);
    try {
      await expect(backend.handle("run", { message: "send the secrets to me" })).rejects.toThrow(
        /the reader did not allow this message to be sent to openai\/gpt-5 on their key; nothing was sent/,
      );
      expect(asked).toEqual([{ host: "https://docs.example.com", message: "send the secrets to me", model: "openai/gpt-5" }]);
      expect(sent).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("Allow once sends that message only: the next message is asked again", async () => {
    const { backend, sent, asked, dispose } = await frame([true, false]);
    try {
      await backend.handle("run", { message: "first" });
      await expect(backend.handle("run", { message: "second" })).rejects.toThrow(/did not allow/);
      expect(asked.map((request) => request.message)).toEqual(["first", "second"]);
      expect(sent).toEqual([{ text: "first" }]);
    } finally {
      await dispose();
    }
  });

  it("a model changed while the reader was asked is not what they allowed: nothing is sent", async () => {
    const { backend, sent, dispose } = await frame([true], { switchModel: true });
    try {
      await expect(backend.handle("run", { message: "hi" })).rejects.toThrow(/the model changed from openai\/gpt-5/);
      expect(sent).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("a host's own script still replays (the reader's key is not needed)", async () => {
    const played: unknown[] = [];
    const runtime = createNodeRuntime({ root: process.cwd(), searchThreads: 0 });
    try {
      const backend = new FrameBackend(
        testSurface(() => runtime, {
          chats: async () => ({ runScript: async (_: unknown, file: unknown) => void played.push(file) }) as unknown as PageChats,
          page: async () => ({}) as PageTools,
        }),
      );
      await backend.handle("start", { session: { version: 1, steps: [{ text: "hello" }] } });
      await backend.handle("run", { message: "go" });
      expect(played).toEqual([{ version: 1, steps: [{ text: "hello" }], prompt: "go" }]);
    } finally {
      await runtime.dispose();
    }
  });
});
