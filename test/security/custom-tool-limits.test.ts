/**
 * Issue 15, item 13: a custom tool runs within a time limit and the call's abort. Attacks: a tool whose
 * promise never settles, one that waits politely for ctx.abort, a plugin's tool that never settles, an
 * aborted call, and `workbench tool` with a tool that never settles (node used to exit with the silent
 * code 13 of an unsettled top-level await). Each call must end with an error naming the tool and the
 * limit, the tool must be told to stop through ctx.abort, and the sentinel outside stays as planted.
 * A synchronous endless loop cannot be stopped in this thread (no timer fires): documented, not tested.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CUSTOM_TOOL_TIMEOUT_MS } from "../../src/tools/custom/time-limit.js";
import { fileBackends, sessionOn } from "../support/tool-session.js";
import { plantSentinel } from "./sentinel.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Where the tools below record what ctx.abort told them (they run in this realm). */
type Seen = Record<string, string>;
const seen = (): Seen => ((globalThis as { __wbCustomToolSeen?: Seen }).__wbCustomToolSeen ??= {});
seen();

const HANG = `
import { tool } from "@opencode-ai/plugin";
export default tool({
  description: "Never answers",
  args: {},
  execute() { return new Promise(() => {}); },
});
`;

/** Waits for ctx.abort, notes it under the key it was given, and only then returns. */
const POLITE = `
import { tool } from "@opencode-ai/plugin";
export default tool({
  description: "Works until told to stop",
  args: { key: tool.schema.string() },
  async execute({ key }, ctx) {
    globalThis.__wbCustomToolSeen[key + ":started"] = "yes";
    await new Promise((done) => ctx.abort.addEventListener("abort", done, { once: true }));
    globalThis.__wbCustomToolSeen[key] = String(ctx.abort.reason?.message ?? ctx.abort.reason);
    return "stopped";
  },
});
`;

const PLUGIN = `
export const Hanging = async () => ({
  tool: {
    plugin_hang: { description: "Never answers either", args: {}, execute: () => new Promise(() => {}) },
  },
});
`;

const CONFIG = JSON.stringify({ experimental: { tool_timeout: 400 } });

async function workspace(backend: (typeof fileBackends)[number]) {
  const s = await sessionOn(backend, {
    "opencode.json": CONFIG,
    ".opencode/tool/hang.ts": HANG,
    ".opencode/tool/polite.ts": POLITE,
    ".opencode/plugin/hanging.ts": PLUGIN,
  });
  cleanups.push(s.dispose);
  const sentinel = await plantSentinel(s.runtime);
  cleanups.push(() => sentinel.dispose());
  return { ...s, sentinel };
}

describe.each(fileBackends)("custom tool limits (%s runtime)", (backend) => {
  it("a tool that never settles ends with the limit's error", async () => {
    const { session, sentinel } = await workspace(backend);
    const call = await session.run("hang", {});
    expect(call.status).toBe("error");
    expect(call.error).toContain("the custom tool hang did not finish within 0.4 s");
    expect(call.error).toContain("experimental.tool_timeout");
    await sentinel.assertUntouched();
  });

  it("a plugin's tool that never settles ends the same way", async () => {
    const { session, sentinel } = await workspace(backend);
    const call = await session.run("plugin_hang", {});
    expect(call.status).toBe("error");
    expect(call.error).toContain("the custom tool plugin_hang did not finish within 0.4 s");
    await sentinel.assertUntouched();
  });

  it("at the limit the tool is told to stop through ctx.abort, and its late answer is dropped", async () => {
    const { session, sentinel } = await workspace(backend);
    const key = `timeout-${backend}-${Math.random()}`;
    const call = await session.run("polite", { key });
    expect(call.status).toBe("error");
    expect(call.output).toBeUndefined();
    expect(call.error).toContain("did not finish within 0.4 s");
    expect(seen()[key]).toContain("did not finish within 0.4 s");
    await sentinel.assertUntouched();
  });

  it("aborting the call stops the tool and ends the call at once", async () => {
    const { session, sentinel } = await workspace(backend);
    const key = `abort-${backend}-${Math.random()}`;
    const controller = new AbortController();
    const running = session.run("polite", { key }, { signal: controller.signal });
    for (let i = 0; i < 200 && !seen()[`${key}:started`]; i++) await new Promise((done) => setTimeout(done, 10));
    expect(seen()[`${key}:started`], "the tool started").toBe("yes");
    controller.abort(new Error("the person pressed stop"));
    const call = await running;
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/aborted/);
    expect(seen()[key]).toBe("the person pressed stop");
    await sentinel.assertUntouched();
  });
});

const HANGING_HOOK = `
export const Stuck = async () => ({
  "tool.execute.before": () => new Promise(() => {}),
});
`;

describe.each(fileBackends)("plugin hook limits (%s runtime)", (backend) => {
  it("a tool.execute.before hook that never settles fails the call with the limit, built-in tools included", async () => {
    const s = await sessionOn(backend, { "opencode.json": CONFIG, ".opencode/plugin/stuck.ts": HANGING_HOOK, "a.txt": "a\n" });
    cleanups.push(s.dispose);
    const sentinel = await plantSentinel(s.runtime);
    const call = await s.session.run("read", { filePath: `${s.root}/a.txt` });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/plugin Stuck .* failed in tool\.execute\.before: did not finish within 0\.4 s/);
    await sentinel.assertUntouched();
  });

  it("the same hook is left behind when the call is aborted", async () => {
    const s = await sessionOn(backend, { ".opencode/plugin/stuck.ts": HANGING_HOOK, "a.txt": "a\n" });
    cleanups.push(s.dispose);
    const controller = new AbortController();
    const running = s.session.run("read", { filePath: `${s.root}/a.txt` }, { signal: controller.signal });
    for (let i = 0; i < 200 && s.session.session.calls.at(-1)?.status !== "running"; i++) await new Promise((done) => setTimeout(done, 10));
    controller.abort();
    const call = await running;
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/failed in tool\.execute\.before: the call was aborted/);
  });
});

describe("custom tool limits: settings", () => {
  it("without experimental.tool_timeout a tool gets the bash tool's two minutes", () => {
    expect(DEFAULT_CUSTOM_TOOL_TIMEOUT_MS).toBe(120_000);
  });

  it.each([["x"], [0], [1.5], [-3]])("experimental.tool_timeout %j is refused, naming where and what to write", async (value) => {
    const opening = sessionOn("embedded", { "opencode.json": JSON.stringify({ experimental: { tool_timeout: value } }) });
    await expect(opening).rejects.toThrow(/experimental\.tool_timeout: must be .*milliseconds/);
  });
});

describe("custom tool limits: the CLI", () => {
  it("`workbench tool` with a tool that never settles reports the limit and exits 1, not 13", async () => {
    const s = await sessionOn("node", { "opencode.json": CONFIG, ".opencode/tool/hang.ts": HANG });
    cleanups.push(s.dispose);
    const result = spawnSync(
      process.execPath,
      [join(import.meta.dirname, "../../bin/workbench.mjs"), "tool", "hang", "--dir", s.root, "--trust"],
      {
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.stderr).toContain("the custom tool hang did not finish within 0.4 s");
    expect(result.status).toBe(1);
  });
});
