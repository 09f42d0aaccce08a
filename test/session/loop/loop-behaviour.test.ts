import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { MAX_STEPS_NOTICE } from "../../../src/session/loop/max-steps.js";
import { classifyProviderError, type ClassifiedError } from "../../../src/session/provider/errors.js";
import { ScriptedLanguageModel } from "../../../src/session/provider/scripted.js";
import { assistants, loopOnce, mockModel, promptText, resolved, streamStep, testAgent, texts } from "../../support/loop.js";
import { sessionsEndedAfterEach } from "../../support/tool-session.js";

const open = sessionsEndedAfterEach();

describe("the loop", () => {
  it("announces each text delta as a separate change, as it arrives", async () => {
    const { session } = await open();
    const model = mockModel([streamStep({ text: ["Hel", "lo, ", "world"] })]);
    const seen: string[] = [];
    const { end } = await loopOnce(session, resolved(model), "hi", {
      changed: () => {
        const last = texts(assistants(session.session.messages)).at(-1);
        if (last !== undefined && last !== seen.at(-1)) seen.push(last);
      },
    });
    expect(end).toBe("done");
    expect(seen.filter((text) => text !== "")).toEqual(["Hel", "Hello, ", "Hello, world"]);
  });

  it("repairs a tool name in the wrong case to the real tool", async () => {
    const { session, runtime } = await open({ "a.txt": "alpha\n" });
    const model = mockModel([
      streamStep({ calls: [{ tool: "Read", input: { filePath: `${runtime.root}/a.txt` } }] }),
      streamStep({ text: ["ok"] }),
    ]);
    const { end } = await loopOnce(session, resolved(model), "read a");
    expect(end).toBe("done");
    expect(session.session.calls).toHaveLength(1);
    expect(session.session.calls[0]).toMatchObject({ tool: "read", status: "completed" });
    expect(session.session.calls[0]!.output).toContain("alpha");
  });

  it("sends an unknown tool to invalid, telling the model what exists, and goes on", async () => {
    const { session } = await open();
    const model = mockModel([streamStep({ calls: [{ tool: "frobnicate", input: { x: 1 } }] }), streamStep({ text: ["sorry"] })]);
    const { end } = await loopOnce(session, resolved(model), "do it");
    expect(end).toBe("done");
    const call = session.session.calls[0]!;
    expect(call.tool).toBe("invalid");
    expect(call.status).toBe("completed");
    expect(call.output).toContain('Unknown tool "frobnicate"');
    expect(call.output).toContain("read");
    expect(model.doStreamCalls).toHaveLength(2);
    // The model's second request carries that explanation as the call's result.
    expect(promptText(model.doStreamCalls[1]!)).toContain('Unknown tool \\"frobnicate\\"');
    // invalid is offered for repairs but never listed as active.
    const offered = model.doStreamCalls[0]!.tools ?? [];
    expect(offered.map((t) => t.name)).not.toContain("invalid");
    // Each tool goes out with the JSON Schema of its zod parameters.
    const read = offered.find((t) => t.name === "read");
    expect(read?.type === "function" && read.inputSchema).toMatchObject({
      type: "object",
      properties: { filePath: { type: "string" } },
      required: ["filePath"],
    });
  });

  it("sends invalid arguments to invalid, naming the problem", async () => {
    const { session } = await open();
    const model = mockModel([streamStep({ calls: [{ tool: "read", input: { filePath: 42 } }] }), streamStep({ text: ["retrying"] })]);
    const { end } = await loopOnce(session, resolved(model), "read");
    expect(end).toBe("done");
    const call = session.session.calls[0]!;
    expect(call).toMatchObject({ tool: "invalid", status: "completed" });
    expect(call.input).toMatchObject({ tool: "read" });
    expect(call.output).toContain("filePath");
    expect(call.output).toMatch(/^The arguments provided to the tool are invalid: /);
  });

  it("asks doom_loop on the third identical call, and a reject stops the loop", async () => {
    const { session, runtime } = await open({ "a.txt": "alpha\n" });
    const input = { filePath: `${runtime.root}/a.txt` };
    const model = mockModel([1, 2, 3, 4].map(() => streamStep({ calls: [{ tool: "read", input }] })));
    const asked: string[] = [];
    session.bus.subscribe("permission.asked", (request) => {
      asked.push(request.permission);
      session.permissions.reply(request.id, "reject");
    });
    const { end } = await loopOnce(session, resolved(model), "read forever");
    expect(end).toBe("blocked");
    expect(asked).toEqual(["doom_loop"]);
    expect(model.doStreamCalls).toHaveLength(3);
    expect(session.session.calls.map((c) => c.status)).toEqual(["completed", "completed", "error"]);
    expect(session.session.calls[2]!.permissions[0]).toMatchObject({ permission: "doom_loop", patterns: ["read"], answer: "reject" });
  });

  it("stops on a doom_loop rejected with feedback, and on calls repeated in another key order", async () => {
    const { session, runtime } = await open({ "a.txt": "alpha\n" });
    const path = `${runtime.root}/a.txt`;
    const inputs = [
      { filePath: path, limit: 5 },
      { limit: 5, filePath: path },
      { filePath: path, limit: 5 },
      { limit: 5, filePath: path },
      { filePath: path, limit: 5 },
    ];
    const model = mockModel(inputs.map((input) => streamStep({ calls: [{ tool: "read", input }] })));
    const asked: string[] = [];
    session.bus.subscribe("permission.asked", (request) => {
      asked.push(request.permission);
      session.permissions.reply(request.id, "reject", "stop repeating yourself");
    });
    const { end } = await loopOnce(session, resolved(model), "read forever");
    expect(end).toBe("blocked");
    expect(asked).toEqual(["doom_loop"]);
    expect(model.doStreamCalls).toHaveLength(3);
  });

  it("stops after a rejected permission; the rejection reaches the model with the next request", async () => {
    const { session } = await open();
    const agent = testAgent("build", {}, [{ permission: "bash", pattern: "*", action: "ask" }]);
    const model = mockModel([
      streamStep({ calls: [{ tool: "bash", input: { command: "echo hi", description: "Say hi" } }] }),
      streamStep({ text: ["understood"] }),
    ]);
    session.bus.subscribe("permission.asked", (request) => session.permissions.reply(request.id, "reject"));
    const first = await loopOnce(session, resolved(model), "say hi", { agent });
    expect(first.end).toBe("blocked");
    expect(model.doStreamCalls).toHaveLength(1);
    expect(session.session.calls[0]).toMatchObject({
      status: "error",
      error: "The user rejected permission to use this specific tool call.",
    });
    const second = await loopOnce(session, resolved(model), "why?", { agent });
    expect(second.end).toBe("done");
    expect(promptText(model.doStreamCalls[1]!)).toContain("The user rejected permission to use this specific tool call.");
  });

  it("carries on after a reject with feedback, which the model reads in its next request", async () => {
    const { session } = await open();
    const agent = testAgent("build", {}, [{ permission: "bash", pattern: "*", action: "ask" }]);
    const model = mockModel([
      streamStep({ calls: [{ tool: "bash", input: { command: "rm -rf build", description: "Clean" } }] }),
      streamStep({ text: ["I will not delete it."] }),
    ]);
    session.bus.subscribe("permission.asked", (request) => session.permissions.reply(request.id, "reject", "keep the build folder"));
    const { end } = await loopOnce(session, resolved(model), "clean up", { agent });
    expect(end).toBe("done");
    expect(model.doStreamCalls).toHaveLength(2);
    expect(promptText(model.doStreamCalls[1]!)).toContain("keep the build folder");
  });

  it("puts the max-steps notice in the last allowed step's request and stops there", async () => {
    const { session, runtime } = await open({ "a.txt": "alpha\n" });
    const model = mockModel([
      streamStep({ calls: [{ tool: "glob", input: { pattern: "*.txt" } }] }),
      streamStep({ calls: [{ tool: "read", input: { filePath: `${runtime.root}/a.txt` } }] }),
      streamStep({ text: ["never asked"] }),
    ]);
    const { end } = await loopOnce(session, resolved(model), "look around", { agent: testAgent("build", { steps: 2 }) });
    expect(end).toBe("max-steps");
    expect(model.doStreamCalls).toHaveLength(2);
    const notice = (call: (typeof model.doStreamCalls)[number]) =>
      call.prompt.some((m) => m.role === "assistant" && m.content.some((c) => c.type === "text" && c.text === MAX_STEPS_NOTICE));
    expect(notice(model.doStreamCalls[0]!)).toBe(false);
    expect(notice(model.doStreamCalls[1]!)).toBe(true);
  });
});

describe("provider errors", () => {
  const rateLimited = () => {
    throw new APICallError({
      message: "Too many requests",
      url: "http://localhost/v1",
      requestBodyValues: {},
      statusCode: 429,
      isRetryable: true,
    });
  };
  // The provider layer's classifier, through a seam the loop offers for tests that need another.
  const classified: ClassifiedError[] = [];
  const classify = (error: unknown): ClassifiedError => {
    const result = classifyProviderError(error);
    classified.push(result);
    return result;
  };

  it("waits and retries a retryable error, showing the wait, then answers", async () => {
    const { session } = await open();
    const model = mockModel([rateLimited, streamStep({ text: ["made it"] })]);
    const delays: number[] = [];
    const { end, statuses } = await loopOnce(session, resolved(model), "hi", {
      classify,
      retryDelay: (attempt) => {
        delays.push(attempt);
        return 5;
      },
    });
    expect(end).toBe("done");
    expect(delays).toEqual([1]);
    expect(classified.at(-1)).toMatchObject({ retryable: true, status: 429 });
    const retry = statuses.find((s) => s.type === "retry");
    expect(retry).toMatchObject({ type: "retry", attempt: 1 });
    expect(retry?.type === "retry" && retry.message).toContain("Too many requests");
    const answers = assistants(session.session.messages);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.role === "assistant" && answers[0]!.error).toBeUndefined();
    expect(texts(answers)).toEqual(["made it"]);
  });

  it("stops during the wait before a retry", async () => {
    const { session } = await open();
    const model = mockModel([rateLimited, streamStep({ text: ["too late"] })]);
    const controller = new AbortController();
    const { end } = await loopOnce(session, resolved(model), "hi", {
      classify,
      retryDelay: () => 600_000,
      signal: controller.signal,
      status: (status) => {
        if (status.type === "retry") controller.abort();
      },
    });
    expect(end).toBe("aborted");
    expect(model.doStreamCalls).toHaveLength(1);
    const answer = assistants(session.session.messages)[0]!;
    expect(answer.role === "assistant" && answer.error?.kind).toBe("aborted");
    expect(answer.role === "assistant" && answer.error?.message).toBe(
      "Stopped retrying after 1 failed attempt: Rate limited by localhost: Too many requests",
    );
  });

  it("does not wait when the provider asks for more than 10 minutes, and says how long it asked for", async () => {
    const { session } = await open();
    const model = mockModel([rateLimited, streamStep({ text: ["never"] })]);
    const { end, statuses } = await loopOnce(session, resolved(model), "hi", {
      classify: (error) => ({ ...classifyProviderError(error), retryAfterMs: 99_999_999 * 1000 }),
    });
    expect(end).toBe("error");
    expect(model.doStreamCalls).toHaveLength(1);
    expect(statuses.some((s) => s.type === "retry")).toBe(false);
    const answer = assistants(session.session.messages)[0]!;
    expect(answer.role === "assistant" && answer.error?.kind).toBe("rate");
    expect(answer.role === "assistant" && answer.error?.hint).toBe(
      "The provider asked to wait 1157 days before retrying (more than 10 min); try again later.",
    );
  });

  it("after the last retry, the hint says it gave up rather than that it is retrying", async () => {
    const { session } = await open();
    const model = mockModel([rateLimited, rateLimited, streamStep({ text: ["never"] })]);
    const { end } = await loopOnce(session, resolved(model), "hi", { classify, retryDelay: () => 1, maxRetries: 1 });
    expect(end).toBe("error");
    expect(model.doStreamCalls).toHaveLength(2);
    const answer = assistants(session.session.messages)[0]!;
    expect(answer.role === "assistant" && answer.error?.hint).toBe(
      "Gave up after 2 attempts; try again later, or check the provider's status page.",
    );
  });

  it("a server error is retried fewer times than a rate limit: 4 attempts against 11", async () => {
    const failing = (status: number) => () => {
      throw new APICallError({
        message: `status ${status}`,
        url: "http://localhost/v1",
        requestBodyValues: {},
        statusCode: status,
        isRetryable: true,
      });
    };
    const { session } = await open();
    const server = mockModel(Array.from({ length: 12 }, () => failing(500)));
    expect((await loopOnce(session, resolved(server), "hi", { classify, retryDelay: () => 1 })).end).toBe("error");
    expect(server.doStreamCalls).toHaveLength(4);
    const rate = mockModel(Array.from({ length: 12 }, () => failing(429)));
    expect((await loopOnce(session, resolved(rate), "again", { classify, retryDelay: () => 1 })).end).toBe("error");
    expect(rate.doStreamCalls).toHaveLength(11);
  });

  it("sets the error on the message and stops when the error is not retryable", async () => {
    const { session } = await open();
    const unauthorized = () => {
      throw new APICallError({
        message: "Invalid API key",
        url: "http://localhost/v1",
        requestBodyValues: {},
        statusCode: 401,
        isRetryable: false,
      });
    };
    const model = mockModel([unauthorized, streamStep({ text: ["never"] })]);
    const { end } = await loopOnce(session, resolved(model), "hi", { classify });
    expect(end).toBe("error");
    expect(model.doStreamCalls).toHaveLength(1);
    const answer = assistants(session.session.messages)[0]!;
    expect(answer.role === "assistant" && answer.error).toMatchObject({ kind: "auth", status: 401 });
    expect(answer.role === "assistant" && answer.error?.message).toContain("Invalid API key");
  });
});

describe("stopping", () => {
  it("keeps the text streamed so far when stopped mid-stream", async () => {
    const { session } = await open();
    const model = new ScriptedLanguageModel(
      { version: 1, steps: [{ text: "one two three four five six seven eight nine ten eleven twelve" }] },
      { speed: 0.5 },
    );
    const controller = new AbortController();
    const { end } = await loopOnce(session, resolved(model), "count", {
      signal: controller.signal,
      changed: () => {
        const text = texts(assistants(session.session.messages)).at(-1) ?? "";
        if (text.includes("four")) controller.abort();
      },
    });
    expect(end).toBe("aborted");
    const answer = assistants(session.session.messages)[0]!;
    expect(answer.role === "assistant" && answer.error?.kind).toBe("aborted");
    const text = texts([answer])[0]!;
    expect(text.startsWith("one two three four")).toBe(true);
    expect(text).not.toContain("twelve");
  });

  it("aborts a running bash command with the stream", async () => {
    const { session } = await open();
    const model = mockModel([
      streamStep({ text: ["Sleeping."], calls: [{ tool: "bash", input: { command: "sleep 20", description: "Wait" } }] }),
    ]);
    const controller = new AbortController();
    session.bus.subscribe("call.updated", ({ callID }) => {
      const call = session.session.calls.find((c) => c.id === callID);
      if (call?.status === "running") setTimeout(() => controller.abort(), 50);
    });
    const { end } = await loopOnce(session, resolved(model), "sleep", { signal: controller.signal });
    expect(end).toBe("aborted");
    const call = session.session.calls[0]!;
    expect(call.tool).toBe("bash");
    expect(call.status).not.toBe("running");
    expect(call.time.end).toBeDefined();
    const answer = assistants(session.session.messages)[0]!;
    expect(texts([answer])).toEqual(["Sleeping."]);
    expect(answer.role === "assistant" && answer.error?.kind).toBe("aborted");
  });
});
