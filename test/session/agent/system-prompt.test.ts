/** The system prompt: base prompt per model family, the <env> block, and instruction files read through the runtime. */
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../../../src/runtime/node/index.js";
import type { Runtime } from "../../../src/runtime/types.js";
import { basePromptFor, modelFamily, systemPrompt, type SystemPromptOptions } from "../../../src/session/agent/system-prompt.js";
import type { WorkspaceConfig } from "../../../src/session/config/workspace-config.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A runtime of either backend with `files` written (relative to the workspace, or absolute under its parent). */
async function runtimeOn(backend: "embedded" | "node", files: Record<string, string>): Promise<{ runtime: Runtime; outside: string }> {
  let runtime: Runtime;
  let outside: string;
  if (backend === "embedded") {
    const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    cleanups.push(() => embedded.dispose());
    runtime = embedded;
    outside = "/home/user";
  } else {
    const base = await realpath(await mkdtemp(join(tmpdir(), "wb-system-")));
    await mkdir(join(base, "workspace"));
    cleanups.push(() => rm(base, { recursive: true, force: true }));
    runtime = createNodeRuntime({ root: join(base, "workspace") });
    cleanups.push(() => runtime.dispose());
    outside = join(base, "home");
  }
  for (const [path, text] of Object.entries(files)) {
    const full = path.startsWith("~/") ? `${outside}/${path.slice(2)}` : `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
  return { runtime, outside };
}

const claude = { providerID: "anthropic", modelID: "claude-sonnet-4-5" };
const now = new Date(2026, 10, 25, 12, 0, 0);

function options(runtime: Runtime, config: WorkspaceConfig = {}, extra: Partial<SystemPromptOptions> = {}): SystemPromptOptions {
  return { agent: {}, model: claude, runtime, config, now, platform: "browser", ...extra };
}

describe("base prompt", () => {
  it("picks the family from the model id", () => {
    expect(modelFamily({ providerID: "anthropic", modelID: "claude-opus-4" })).toBe("anthropic");
    expect(modelFamily({ providerID: "openrouter", modelID: "anthropic/claude-3.5-haiku" })).toBe("anthropic");
    expect(modelFamily({ providerID: "openai", modelID: "gpt-5" })).toBe("openai");
    expect(modelFamily({ providerID: "openai", modelID: "o3-mini" })).toBe("openai");
    expect(modelFamily({ providerID: "openrouter", modelID: "openai/gpt-4.1" })).toBe("openai");
    expect(modelFamily({ providerID: "google", modelID: "gemini-2.5-pro" })).toBe("gemini");
    expect(modelFamily({ providerID: "ollama", modelID: "qwen3-coder:30b" })).toBe("other");
    // "o1"/"o3" only at the start of a name part: a local model called "llama3-o1ish" is no OpenAI model.
    expect(modelFamily({ providerID: "lmstudio", modelID: "llama3-o1ish" })).toBe("other");
  });

  it("shares one base and adds the family's notes, different per family", () => {
    const prompts = ["claude-x", "gpt-5", "gemini-2.5-pro", "qwen3"].map((modelID) => basePromptFor({ providerID: "p", modelID }));
    const shared = prompts[0]!.split("# Notes for this model")[0]!;
    expect(shared.length).toBeGreaterThan(500);
    for (const prompt of prompts) expect(prompt.startsWith(shared)).toBe(true);
    expect(new Set(prompts).size).toBe(4);
  });

  it("is replaced by the agent's own prompt; the env block and instructions stay", async () => {
    const { runtime } = await runtimeOn("embedded", { "AGENTS.md": "Use tabs.\n" });
    const parts = await systemPrompt(options(runtime, {}, { agent: { prompt: "You only review code." } }));
    expect(parts[0]).toBe("You only review code.");
    expect(parts[1]).toMatch(/^You are powered by the model named claude-sonnet-4-5/);
    expect(parts[2]).toBe(`Instructions from: ${runtime.root}/AGENTS.md\nUse tabs.`);
    const family = await systemPrompt(options(runtime, {}, { agent: { prompt: "  " } }));
    expect(family[0]).toBe(basePromptFor(claude));
  });
});

describe.each(["embedded", "node"] as const)("on the %s runtime", (backend) => {
  it("writes the environment in OpenCode's <env> shape", async () => {
    const { runtime } = await runtimeOn(backend, {});
    const plain = (await systemPrompt(options(runtime)))[1];
    const runtimeLine =
      backend === "embedded"
        ? "embedded (an in-page bash interpreter with common Unix commands, git, node for JavaScript and TypeScript (node --test included), npm (scripts, and installs from a registry), and python3: CPython with its standard library, pip installs of pure-Python wheels, no threads or subprocesses; no other network access)"
        : "node (real processes on this machine)";
    expect(plain).toBe(
      [
        "You are powered by the model named claude-sonnet-4-5. The exact model ID is anthropic/claude-sonnet-4-5",
        "Here is some useful information about the environment you are running in:",
        "<env>",
        `  Working directory: ${runtime.root}`,
        `  Workspace root folder: ${runtime.root}`,
        "  Is directory a git repo: no",
        "  Platform: browser",
        `  Runtime: ${runtimeLine}`,
        "  Today's date: Wed Nov 25 2026",
        "</env>",
      ].join("\n"),
    );
    await runtime.fs.mkdir(`${runtime.root}/.git`, { recursive: true });
    const inRepo = (await systemPrompt(options(runtime, {}, { platform: undefined })))[1]!;
    expect(inRepo).toContain("Is directory a git repo: yes");
    // Found out from where the code runs: these tests run in Node.
    expect(inRepo).toContain(`Platform: node (${process.platform})`);
  });

  it("reads AGENTS.md, else CLAUDE.md, and the global AGENTS.md", async () => {
    const both = await runtimeOn(backend, {
      "AGENTS.md": "agents rules",
      "CLAUDE.md": "claude rules",
      "~/.config/opencode/AGENTS.md": "global rules",
    });
    const globalDir = `${both.outside}/.config/opencode`;
    expect((await systemPrompt(options(both.runtime, {}, { globalConfigDir: globalDir }))).slice(2)).toEqual([
      `Instructions from: ${both.runtime.root}/AGENTS.md\nagents rules`,
      `Instructions from: ${globalDir}/AGENTS.md\nglobal rules`,
    ]);
    const claudeOnly = await runtimeOn(backend, { "CLAUDE.md": "claude rules", "~/.claude/CLAUDE.md": "home claude" });
    expect((await systemPrompt(options(claudeOnly.runtime, {}, { home: claudeOnly.outside }))).slice(2)).toEqual([
      `Instructions from: ${claudeOnly.runtime.root}/CLAUDE.md\nclaude rules`,
      `Instructions from: ${claudeOnly.outside}/.claude/CLAUDE.md\nhome claude`,
    ]);
    const none = await runtimeOn(backend, {});
    expect(await systemPrompt(options(none.runtime))).toHaveLength(2);
  });

  it("adds the config's instructions: paths and globs from the workspace, each file once; missing ones are noted, not fatal", async () => {
    const { runtime } = await runtimeOn(backend, {
      "AGENTS.md": "root",
      "CONTRIBUTING.md": "contribute",
      "docs/b.md": "b",
      "docs/a.md": "a",
      "docs/sub/c.md": "c",
      "docs/notes.txt": "not markdown",
      ".cursor/rules/style.mdc": "style",
    });
    const notes: string[] = [];
    const config = {
      instructions: [
        "CONTRIBUTING.md",
        "docs/*.md",
        ".cursor/rules/*.mdc",
        "AGENTS.md",
        "missing.md",
        "nothing/*.md",
        "https://example.com/rules.md",
      ],
    };
    const parts = (await systemPrompt(options(runtime, config, { onNote: (note) => notes.push(note) }))).slice(2);
    const root = runtime.root;
    expect(parts).toEqual([
      `Instructions from: ${root}/AGENTS.md\nroot`,
      `Instructions from: ${root}/CONTRIBUTING.md\ncontribute`,
      `Instructions from: ${root}/docs/a.md\na`,
      `Instructions from: ${root}/docs/b.md\nb`,
      `Instructions from: ${root}/.cursor/rules/style.mdc\nstyle`,
    ]);
    expect(notes).toEqual([
      `instructions: missing.md does not exist (looked for ${root}/missing.md); it was skipped`,
      "instructions: nothing/*.md matches no file; it was skipped",
      "instructions: https://example.com/rules.md is a URL; only files in the workspace are read, so it was left out (save it as a file to use it)",
    ]);
    const deep = (await systemPrompt(options(runtime, { instructions: ["docs/**/*.md"] }))).slice(3);
    expect(deep.map((part) => part.split("\n")[0])).toEqual([
      `Instructions from: ${root}/docs/a.md`,
      `Instructions from: ${root}/docs/b.md`,
      `Instructions from: ${root}/docs/sub/c.md`,
    ]);
  });

  it("notes an instructions value that is not a list instead of failing", async () => {
    const { runtime } = await runtimeOn(backend, {});
    const notes: string[] = [];
    // loadWorkspaceConfig refuses such a file; a config built by hand can still hold one.
    const unchecked = { instructions: "CONTRIBUTING.md" } as unknown as WorkspaceConfig;
    const parts = await systemPrompt(options(runtime, unchecked, { onNote: (note) => notes.push(note) }));
    expect(parts).toHaveLength(2);
    expect(notes[0]).toMatch(/instructions must be a list of paths or globs/);
  });
});
