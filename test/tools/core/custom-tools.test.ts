/** Custom tools and plugins written for OpenCode load here unchanged, and only in a trusted workspace. */
import { afterEach, describe, expect, it } from "vitest";
import { customIds, sessionWith } from "../../support/tool-session.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

const TOOL_SHAPE = `
import { tool } from "@opencode-ai/plugin";
import z from "zod";
export default tool({
  description: "Adds two numbers",
  args: { a: z.number(), b: z.number().default(10) },
  async execute(args: { a: number; b: number }, ctx) {
    return \`\${args.a + args.b} in \${ctx.directory} for \${ctx.agent}\`;
  },
});
export const twice = tool({
  description: "Doubles",
  args: { n: tool.schema.number() },
  async execute({ n }) { return String(n * 2); },
});
`;

const DEFINE_SHAPE = `
import { Tool } from "@opencode-ai/plugin";
import z from "zod";
export default Tool.define("ignored-id", {
  description: "Reverses",
  parameters: z.object({ input: z.string().describe("The input to process") }),
  execute: async (args) => ({ title: "Reversed", metadata: { length: args.input.length }, output: args.input.split("").reverse().join("") }),
});
`;

describe("custom tools", () => {
  it("loads tool({...}) files: default export named after the file, named exports file_export", async () => {
    const s = await sessionWith({ ".opencode/tool/math.ts": TOOL_SHAPE });
    dispose = s.dispose;
    expect(customIds(s.session.registry.ids())).toEqual(["math", "math_twice"]);
    const call = await s.session.run("math", { a: 2 });
    expect(call).toMatchObject({ status: "completed", title: "", output: "12 in /workspace for build", metadata: { truncated: false } });
    expect((await s.session.run("math_twice", { n: 21 })).output).toBe("42");
  });

  it("loads Tool.define(...) files from tools/ too, keeping title and metadata", async () => {
    const s = await sessionWith({ ".opencode/tools/rev.js": DEFINE_SHAPE.replace(/: string/g, "") });
    dispose = s.dispose;
    const call = await s.session.run("rev", { input: "abc" });
    expect(call).toMatchObject({ status: "completed", title: "Reversed", output: "cba", metadata: { length: 3, truncated: false } });
  });

  it("validates a custom tool's arguments before it runs", async () => {
    const s = await sessionWith({ ".opencode/tool/math.ts": TOOL_SHAPE });
    dispose = s.dispose;
    const call = await s.session.run("math", { a: "two" });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/^The math tool was called with invalid arguments/);
  });

  it("names a Tool.define tool by its file in validation errors, not by the id inside it", async () => {
    const s = await sessionWith({ ".opencode/tool/rev.ts": DEFINE_SHAPE });
    dispose = s.dispose;
    const call = await s.session.run("rev", { input: 1 });
    expect(call.error).toMatch(/^The rev tool was called with invalid arguments/);
  });

  it("reports a file that fails to load and keeps the others", async () => {
    const s = await sessionWith({
      ".opencode/tool/broken.ts": "export default tool({ this is not code",
      ".opencode/tool/lodash.ts": 'import _ from "lodash"; export default _;',
      ".opencode/tool/empty.ts": "export const x = 1;",
      ".opencode/tool/math.ts": TOOL_SHAPE,
    });
    dispose = s.dispose;
    expect(s.session.registry.ids()).toContain("math");
    const problems = Object.fromEntries(s.session.problems.map((p) => [p.file.split("/").pop(), p.error]));
    expect(Object.keys(problems).sort()).toEqual(["broken.ts", "empty.ts", "lodash.ts"]);
    expect(problems["lodash.ts"]).toMatch(/cannot import "lodash".*only @opencode-ai\/plugin and zod/);
    expect(problems["empty.ts"]).toMatch(/exports no tool/);
  });

  it("runs no workspace code until the workspace is trusted, and says what it skipped", async () => {
    const s = await sessionWith(
      {
        ".opencode/tool/math.ts": TOOL_SHAPE,
        ".opencode/plugin/spy.ts": "export const Spy = async () => { globalThis.__spyRan = true; return {}; };",
      },
      { trusted: false },
    );
    dispose = s.dispose;
    expect(customIds(s.session.registry.ids())).toEqual([]);
    expect(s.session.untrustedFiles.map((f) => f.split("/").pop()).sort()).toEqual(["math.ts", "spy.ts"]);
    expect((globalThis as { __spyRan?: boolean }).__spyRan).toBeUndefined();
  });
});

describe("plugins", () => {
  const PLUGIN = `
import type { Plugin } from "@opencode-ai/plugin";
import { tool } from "@opencode-ai/plugin";
export const Audit: Plugin = async ({ directory, $ }) => ({
  tool: {
    shout: tool({ description: "Shouts", args: { text: tool.schema.string() }, async execute({ text }) { return text.toUpperCase(); } }),
    where: tool({ description: "pwd", args: {}, async execute() { return (await $\`pwd\`).text().trim() + " " + directory; } }),
  },
  "tool.execute.before": async (input, output) => {
    if (input.tool === "shout") output.args.text = output.args.text + "!";
  },
  "tool.execute.after": async (input, output) => {
    if (input.tool === "shout") { output.title = "shouted"; output.metadata.audited = true; output.output += " (audited)"; }
    if (input.tool === "boom") throw new Error("audit log is full");
  },
});
`;

  it("adds a plugin's tools; before may change args, after may change title, output and metadata", async () => {
    const s = await sessionWith({ ".opencode/plugin/audit.ts": PLUGIN });
    dispose = s.dispose;
    expect(customIds(s.session.registry.ids())).toEqual(["shout", "where"]);
    const call = await s.session.run("shout", { text: "hey" });
    expect(call).toMatchObject({ status: "completed", title: "shouted", output: "HEY! (audited)", metadata: { audited: true } });
    expect((await s.session.run("where", {})).output).toBe("/workspace /workspace");
  });

  it("turns a hook that throws into the call's error, naming the plugin", async () => {
    const s = await sessionWith({
      ".opencode/plugin/audit.ts": PLUGIN.replace('"tool.execute.before"', '"unused"').replace('input.tool === "boom"', "true"),
    });
    dispose = s.dispose;
    const call = await s.session.run("shout", { text: "x" });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/plugin Audit .* failed in tool.execute.after: audit log is full/);
  });
});
