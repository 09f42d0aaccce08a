/** Tool.define: arguments are checked (and parsed) before every run, and output is truncated unless the tool did it. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { define, type Context } from "../../../src/tools/tool.js";

function context(truncate: Context["truncate"] = async (text) => ({ content: text, truncated: false })): Context {
  return {
    sessionID: "s",
    messageID: "m",
    agent: "build",
    abort: new AbortController().signal,
    metadata() {},
    ask: async () => {},
    runtime: undefined as never,
    directory: "/workspace",
    worktree: "/workspace",
    fileTime: undefined as never,
    bus: undefined as never,
    truncate,
  };
}

const echo = define("echo", {
  description: "echoes",
  parameters: z.object({ text: z.string(), times: z.number().int().min(1).default(2) }),
  async execute(args) {
    return { title: "echo", metadata: { times: args.times }, output: args.text.repeat(args.times) };
  },
});

describe("Tool.define", () => {
  it("hands execute the parsed arguments, defaults applied", async () => {
    const tool = await echo.init();
    const result = await tool.execute({ text: "ab" } as never, context());
    expect(result.output).toBe("abab");
    expect(result.metadata).toMatchObject({ times: 2, truncated: false });
  });

  it("names the tool and the failing field when arguments do not fit", async () => {
    const tool = await echo.init();
    const error = (await tool.execute({ text: 5 } as never, context()).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^The echo tool was called with invalid arguments: /);
    expect(error.message).toMatch(/text/);
    expect(error.message).toMatch(/Please rewrite the input so it satisfies the expected schema\.$/);
  });

  it("uses the tool's own formatValidationError when it has one", async () => {
    const tool = await define("picky", {
      description: "",
      parameters: z.object({ n: z.number() }),
      formatValidationError: (error) => `picky wants a number (${error.issues.length} issue)`,
      execute: async () => ({ title: "", metadata: {}, output: "" }),
    }).init();
    await expect(tool.execute({ n: "x" } as never, context())).rejects.toThrow("picky wants a number (1 issue)");
  });

  it("truncates through the context, recording the outcome in metadata", async () => {
    const tool = await echo.init();
    const result = await tool.execute(
      { text: "x", times: 3 },
      context(async () => ({ content: "cut", truncated: true, outputPath: "/data/tool-output/tool_1" })),
    );
    expect(result.output).toBe("cut");
    expect(result.metadata).toMatchObject({ truncated: true, outputPath: "/data/tool-output/tool_1" });
  });

  it("leaves a result alone when the tool set metadata.truncated itself", async () => {
    const tool = await define("self", {
      description: "",
      parameters: z.object({}),
      execute: async () => ({ title: "", metadata: { truncated: false }, output: "whole" }),
    }).init();
    const result = await tool.execute(
      {},
      context(async () => ({ content: "WRONG", truncated: true, outputPath: "x" })),
    );
    expect(result.output).toBe("whole");
  });

  it("accepts an async init that sees the agent", async () => {
    const info = define("agentish", async (ctx) => ({
      description: `for ${ctx?.agent?.name ?? "nobody"}`,
      parameters: z.object({}),
      execute: async () => ({ title: "", metadata: {}, output: "" }),
    }));
    expect((await info.init({ agent: { name: "plan", permission: [] } })).description).toBe("for plan");
  });
});
