/**
 * The protocol between the page and the custom-code sandbox (src/tools/custom/sandbox): a tool's id,
 * description and JSON Schema come from the sandbox, a call carries validated arguments and a narrow
 * context, an abort is a message, a tool that throws fails its call, and one that never answers is ended
 * with its sandbox, which the next call starts afresh. The sandbox here is served in this thread over a
 * real MessageChannel (its isolation from the page's storage is e2e/custom-sandbox.spec.ts's business);
 * every answer is compared with the same files loaded in process, the CLI's way.
 */
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxedWorkspaceCode } from "../../../src/tools/custom/sandbox/client.js";
import { serveCustomCode } from "../../../src/tools/custom/sandbox/serve.js";
import { inThreadSandboxes } from "../../support/in-thread-sandbox.js";
import { customIds, sessionWith } from "../../support/tool-session.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A loader over in-thread sandboxes, ended after the test. */
function sandboxes(serve?: Parameters<typeof inThreadSandboxes>[0]) {
  const made = inThreadSandboxes(serve);
  const code = new SandboxedWorkspaceCode({ open: made.open, stopGraceMs: 100, loadTimeoutMs: 2000 });
  cleanups.push(() => code.dispose());
  return { code, ...made };
}

async function both(files: Record<string, string>) {
  const { code, counts, sent } = sandboxes();
  const sandboxed = await sessionWith(files, { workspaceCode: code.load });
  const inProcess = await sessionWith(files);
  cleanups.push(sandboxed.dispose, inProcess.dispose);
  return { sandboxed: sandboxed.session, inProcess: inProcess.session, counts, sent };
}

const MATH = `
import { tool } from "@opencode-ai/plugin";
import z from "zod";
export default tool({
  description: "Adds two numbers",
  args: { a: z.number().describe("first"), b: z.number().default(10), note: z.string().refine((s) => s !== "bad", "no bad notes").optional() },
  async execute(args, ctx) {
    ctx.metadata({ title: "adding" });
    return \`\${args.a + args.b} in \${ctx.directory} for \${ctx.agent} keys \${Object.keys(ctx).sort().join(",")}\`;
  },
});
export const boom = tool({ description: "Throws", args: {}, async execute() { throw new Error("the tool broke on purpose"); } });
`;

const REV = `
import { Tool } from "@opencode-ai/plugin";
import z from "zod";
export default Tool.define("ignored", {
  description: "Reverses",
  parameters: z.object({ input: z.string() }),
  execute: async (args) => ({ title: "Reversed", metadata: { length: args.input.length }, output: args.input.split("").reverse().join("") }),
});
`;

const PLUGIN = `
import { tool } from "@opencode-ai/plugin";
export const Audit = async ({ directory, $ }) => ({
  tool: {
    shout: tool({ description: "Shouts", args: { text: tool.schema.string() }, async execute({ text }) { return text.toUpperCase(); } }),
    where: tool({ description: "pwd", args: {}, async execute() { return (await $\`pwd\`).text().trim() + " " + directory; } }),
  },
  "tool.execute.before": async (input, output) => { if (input.tool === "shout") output.args.text = output.args.text + "!"; },
  "tool.execute.after": async (input, output) => {
    if (input.tool === "shout") { output.title = "shouted"; output.metadata.audited = true; output.output += " (audited)"; }
  },
});
`;

const WAITS = `
import { tool } from "@opencode-ai/plugin";
let calls = 0;
export const polite = tool({
  description: "Works until told to stop",
  args: {},
  async execute(_args, ctx) {
    await new Promise((done) => ctx.abort.addEventListener("abort", done, { once: true }));
    return "stopped";
  },
});
export const hang = tool({ description: "Never answers", args: {}, execute: () => new Promise(() => {}) });
export const count = tool({ description: "Counts calls in this sandbox", args: {}, async execute() { calls++; return String(calls); } });
`;

const outcome = (call: { status: string; title?: string; output?: string; error?: string; metadata?: unknown }) => ({
  status: call.status,
  title: call.title,
  output: call.output,
  error: call.error,
  metadata: call.metadata,
});

describe("the custom-code sandbox's protocol", () => {
  it("describes each tool by id, description and JSON Schema, as loading in process does", async () => {
    const { sandboxed, inProcess } = await both({ ".opencode/tool/math.ts": MATH, ".opencode/tools/rev.ts": REV });
    expect(customIds(sandboxed.registry.ids())).toEqual(customIds(inProcess.registry.ids()));
    expect(customIds(sandboxed.registry.ids())).toEqual(["math", "math_boom", "rev"]);
    for (const id of ["math", "rev"]) {
      const [ours, theirs] = await Promise.all([sandboxed.registry.get(id)!.init(), inProcess.registry.get(id)!.init()]);
      expect(ours.description).toBe(theirs.description);
      // zod reads the JSON Schema back as objects that let unknown keys through (`additionalProperties: {}`);
      // the sandbox's own schema strips them, so that one difference is taken out before comparing.
      const schema = (tool: typeof ours) =>
        JSON.parse(JSON.stringify(z.toJSONSchema(tool.parameters, { io: "input", unrepresentable: "any" })), (key, value) =>
          value &&
          typeof value === "object" &&
          !Array.isArray(value) &&
          "additionalProperties" in value &&
          Object.keys(value.additionalProperties).length === 0
            ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== "additionalProperties"))
            : value,
        );
      expect(schema(ours)).toEqual(schema(theirs));
    }
  });

  it("runs calls with a narrow context and returns what running in process returns", async () => {
    const { sandboxed, inProcess } = await both({ ".opencode/tool/math.ts": MATH, ".opencode/tools/rev.ts": REV });
    const ours = await sandboxed.run("math", { a: 2 });
    expect(ours.output).toBe("12 in /workspace for build keys abort,agent,ask,directory,messageID,metadata,sessionID,worktree");
    expect(outcome(ours)).toEqual(outcome(await inProcess.run("math", { a: 2 })));
    expect(outcome(await sandboxed.run("rev", { input: "abc" }))).toEqual(outcome(await inProcess.run("rev", { input: "abc" })));
  });

  it("refuses invalid arguments with the model's message, also those only the sandbox's schema can judge", async () => {
    const { sandboxed, inProcess } = await both({ ".opencode/tool/math.ts": MATH });
    for (const args of [{ a: "two" }, { a: 1, note: "bad" }]) {
      const ours = await sandboxed.run("math", args);
      expect(ours.status).toBe("error");
      expect(ours.error).toMatch(/^The math tool was called with invalid arguments/);
      expect(ours.error).toBe((await inProcess.run("math", args)).error);
    }
    expect((await sandboxed.run("math", { a: 1, note: "bad" })).error).toContain("no bad notes");
  });

  it("fails the call of a tool that throws, with its message", async () => {
    const { sandboxed, inProcess } = await both({ ".opencode/tool/math.ts": MATH });
    const call = await sandboxed.run("math_boom", {});
    expect(call).toMatchObject({ status: "error", error: "the tool broke on purpose" });
    expect(call.error).toBe((await inProcess.run("math_boom", {})).error);
  });

  it("runs plugins' tools and hooks through messages, with $ served by the page's shell", async () => {
    const { sandboxed, inProcess } = await both({ ".opencode/plugin/audit.ts": PLUGIN });
    expect(customIds(sandboxed.registry.ids())).toEqual(["shout", "where"]);
    const shout = await sandboxed.run("shout", { text: "hey" });
    expect(shout).toMatchObject({ status: "completed", title: "shouted", output: "HEY! (audited)", metadata: { audited: true } });
    expect(outcome(shout)).toEqual(outcome(await inProcess.run("shout", { text: "hey" })));
    expect((await sandboxed.run("where", {})).output).toBe("/workspace /workspace");
  });

  it("sends an abort as a message: a tool that listens stops, and its sandbox lives on", async () => {
    const { sandboxed, counts, sent } = await both({ ".opencode/tool/waits.ts": WAITS });
    const stop = new AbortController();
    const running = sandboxed.run("waits_polite", {}, { signal: stop.signal });
    await new Promise((done) => setTimeout(done, 50));
    stop.abort(new Error("stopped by the test"));
    const call = await running;
    expect(call.status).toBe("error");
    expect(sent.some((message) => (message as { kind: string }).kind === "abort")).toBe(true);
    await new Promise((done) => setTimeout(done, 300));
    expect(counts).toEqual({ opened: 1, ended: 0 });
    expect((await sandboxed.run("waits_count", {})).output).toBe("1");
  });

  it("ends a tool that never answers with its sandbox after the time limit, and the next call starts a fresh one", async () => {
    const { sandboxed, counts } = await both({
      "opencode.json": JSON.stringify({ experimental: { tool_timeout: 200 } }),
      ".opencode/tool/waits.ts": WAITS,
    });
    expect((await sandboxed.run("waits_count", {})).output).toBe("1");
    const call = await sandboxed.run("waits_hang", {});
    expect(call.status).toBe("error");
    expect(call.error).toContain("did not finish within 0.2 s");
    // Asked at once, within the stuck tool's grace: the call waits for the verdict, not behind the stuck tool,
    // and runs in a fresh sandbox (the files loaded again, so the count starts over).
    const next = await sandboxed.run("waits_count", {});
    expect(next).toMatchObject({ status: "completed", output: "1" });
    expect(counts).toEqual({ opened: 2, ended: 1 });
  });

  it("asks permission through the page: a denied ask fails the call, an allowed one lets it finish", async () => {
    const asker = `
import { tool } from "@opencode-ai/plugin";
export default tool({
  description: "Asks before it works",
  args: { command: tool.schema.string() },
  async execute({ command }, ctx) {
    await ctx.ask({ permission: "bash", patterns: [command], always: [command], metadata: {} });
    return "allowed: " + command;
  },
});
`;
    const files = {
      "opencode.json": JSON.stringify({ permission: { bash: { "*": "allow", "rm *": "deny" } } }),
      ".opencode/tool/asker.ts": asker,
    };
    const { sandboxed, inProcess } = await both(files);
    for (const command of ["ls", "rm -rf /"]) {
      const ours = await sandboxed.run("asker", { command });
      expect(outcome(ours)).toEqual(outcome(await inProcess.run("asker", { command })));
      expect(ours.status).toBe(command === "ls" ? "completed" : "error");
    }
  });

  it("drops what does not fit the protocol (the workspace's code shares the sandbox's thread)", async () => {
    const { code } = sandboxes((post, listen) => {
      serveCustomCode({
        post: (message) => {
          post({ kind: "done", id: 1, title: 5, output: null });
          post({ kind: "ask", id: 9, call: 1, input: { permission: "bash" } });
          post("not an object");
          post(message);
        },
        listen,
      });
    });
    const s = await sessionWith({ ".opencode/tool/math.ts": MATH }, { workspaceCode: code.load });
    cleanups.push(s.dispose);
    expect(outcome(await s.session.run("math", { a: 1, b: 1 }))).toMatchObject({ status: "completed" });
    expect((await s.session.run("math", { a: 1, b: 1 })).output).toMatch(/^2 in \/workspace/);
  });

  it("reports a file that fails to load, and a plugin that never finishes starting", async () => {
    const { code } = sandboxes();
    const s = await sessionWith(
      { ".opencode/tool/lodash.ts": 'import _ from "lodash"; export default _;', ".opencode/tool/math.ts": MATH },
      { workspaceCode: code.load },
    );
    cleanups.push(s.dispose);
    expect(customIds(s.session.registry.ids())).toEqual(["math", "math_boom"]);
    expect(s.session.problems.map((p) => p.error).join("\n")).toMatch(/cannot import "lodash"/);
    const stuck = sandboxes();
    const slow = new SandboxedWorkspaceCode({ open: stuck.open, loadTimeoutMs: 200 });
    cleanups.push(() => slow.dispose());
    const t = await sessionWith(
      { ".opencode/plugin/stuck.ts": "export const Stuck = () => new Promise(() => {});" },
      { workspaceCode: slow.load },
    );
    cleanups.push(t.dispose);
    expect(t.session.problems.map((p) => p.error).join("\n")).toMatch(/loading took longer than 0.2 s/);
  });
});
