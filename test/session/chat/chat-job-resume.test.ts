/**
 * A background job that ends while the agent is idle wakes it (resumeOnJobEnd, the page's setting): the
 * agent runs once more, reads the job's notice and answers, with no message from the person. Off (the
 * CLI's default), and after the person pressed Stop, the notice waits for the next message instead.
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { Chat } from "../../../src/session/chat/chat.js";
import { resolved, streamStep, testAgent, texts } from "../../support/loop.js";
import { sessionWith } from "../../support/tool-session.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

function lastUserText(options: LanguageModelV4CallOptions): string {
  const last = options.prompt.filter((message) => message.role === "user").at(-1);
  if (!last || typeof last.content === "string") return "";
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * "go": start `sleep` in the background, then say so; a notice: quote it. With `hang`, the step after the
 * call never ends until the run is stopped (the person presses Stop while it thinks).
 */
function jobModel(options: { hang?: boolean } = {}) {
  let steps = 0;
  return new MockLanguageModelV4({
    doStream: async (call: LanguageModelV4CallOptions) => {
      const last = lastUserText(call);
      if (last.includes("<background_job")) {
        const said = /finished-job/.test(last) ? "the job said finished-job" : "the job said nothing";
        return { stream: convertArrayToReadableStream(streamStep({ text: [said] })) };
      }
      if (steps++ === 0) {
        const command = { command: "sleep 0.4; echo finished-job", description: "Wait a little", background: true };
        return { stream: convertArrayToReadableStream(streamStep({ calls: [{ tool: "bash", input: command }] })) };
      }
      if (options.hang) {
        const stream = new ReadableStream({
          start(controller) {
            call.abortSignal?.addEventListener("abort", () => controller.error(call.abortSignal?.reason));
          },
        });
        return { stream };
      }
      return { stream: convertArrayToReadableStream(streamStep({ text: ["started it"] })) };
    },
  });
}

async function chatWith(model: MockLanguageModelV4, resumeOnJobEnd: boolean) {
  const made = await sessionWith({});
  disposers.push(made.dispose);
  const chat = new Chat({
    tools: made.session,
    agents: [testAgent("build")],
    resolveModel: async () => resolved(model),
    system: async () => ["You are a test."],
    model: { providerID: "test", modelID: "test-model" },
    resumeOnJobEnd,
  });
  disposers.push(async () => chat.dispose());
  return { chat, jobs: made.session.jobs! };
}

const answers = (chat: Chat) => texts(chat.messages().filter((message) => message.role === "assistant"));

describe("contract: the agent wakes when a background job ends", () => {
  it("runs once more with no message from the person, and answers from the job's notice", async () => {
    const { chat, jobs } = await chatWith(jobModel(), true);
    await chat.send({ text: "go" });
    expect(answers(chat)).toEqual(["started it"]);
    const [job] = jobs.list();
    await jobs.ended(job!.id);
    await expect.poll(() => answers(chat), { timeout: 10_000 }).toEqual(["started it", "the job said finished-job"]);
    await expect.poll(() => chat.status().type).toBe("idle");
    // No message typed by anyone: the last user message is the workbench's notice.
    const users = chat.messages().filter((message) => message.role === "user");
    expect(users).toHaveLength(2);
    expect(users[1]!.parts.every((part) => part.type === "text" && part.synthetic === true)).toBe(true);
  });

  it("is not woken by a job the person started (the Tools pane), only by its own", async () => {
    const { chat, jobs } = await chatWith(jobModel(), true);
    const job = await jobs.start("echo by hand", { cwd: "/workspace" });
    await jobs.ended(job.id);
    expect(chat.status().type).toBe("idle");
    expect(chat.messages()).toEqual([]);
  });

  it("leaves the notice for the next message when resuming is off", async () => {
    const { chat, jobs } = await chatWith(jobModel(), false);
    await chat.send({ text: "go" });
    const [job] = jobs.list();
    await jobs.ended(job!.id);
    expect(chat.status().type).toBe("idle");
    expect(answers(chat)).toEqual(["started it"]);
    expect(jobs.waitingEnds()).toHaveLength(1);
  });

  it("does not wake an agent the person stopped; their next message brings the notice", async () => {
    const { chat, jobs } = await chatWith(jobModel({ hang: true }), true);
    const sent = chat.send({ text: "go" });
    await expect.poll(() => jobs.list().length, { timeout: 10_000 }).toBe(1);
    chat.stop();
    await sent;
    await jobs.ended(jobs.list()[0]!.id);
    expect(chat.status().type).toBe("idle");
    expect(jobs.waitingEnds()).toHaveLength(1);
    await chat.send({ text: "what happened?" });
    expect(answers(chat).at(-1)).toBe("the job said finished-job");
  });
});
