/**
 * A rule file (AGENTS.md, else CLAUDE.md, else CONTEXT.md) that is a symbolic link out of the workspace
 * would read any file of the person's (a private key) into the system prompt, which the model then sees
 * and can send on. Untrusted, such a link is left out with a note, as `{file:}` and `instructions` are, on
 * the node and embedded runtimes; the sentinel outside is neither read into the prompt nor changed. Trusted,
 * it is read (the rule holds back, it is not broken), and a link that stays inside is read untrusted too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { systemPrompt } from "../../src/session/agent/system-prompt.js";
import { fileBackends, sessionOn } from "../support/tool-session.js";
import { plantSentinel, SENTINEL_TEXT } from "./sentinel.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(fileBackends)("rule files that are links, on %s", (backend) => {
  async function promptWith(ruleFile: string, linkTo: "sentinel" | "inside", trusted: boolean) {
    const s = await sessionOn(backend, { "notes/house-rules.md": "Use tabs.\n" }, { trusted });
    cleanups.push(s.dispose);
    const sentinel = await plantSentinel(s.runtime);
    cleanups.unshift(sentinel.dispose);
    const target = linkTo === "sentinel" ? sentinel.file : `${s.runtime.root}/notes/house-rules.md`;
    await s.runtime.fs.symlink(target, `${s.runtime.root}/${ruleFile}`);
    const notes: string[] = [];
    const parts = await systemPrompt({
      agent: s.session.agent,
      model: { providerID: "openai", modelID: "gpt-5" },
      runtime: s.runtime,
      config: s.session.config,
      now: new Date(0),
      trusted,
      onNote: (note) => notes.push(note),
    });
    return { prompt: parts.join("\n"), notes, sentinel };
  }

  it.each(["AGENTS.md", "CLAUDE.md", "CONTEXT.md"])("untrusted: %s linking outside is left out with a note", async (name) => {
    const { prompt, notes, sentinel } = await promptWith(name, "sentinel", false);
    sentinel.assertNotLeaked(prompt);
    expect(prompt).not.toContain(SENTINEL_TEXT.trim());
    expect(notes.join("\n")).toMatch(new RegExp(`${name} is a link to a file outside the workspace.*trust the workspace`));
    await sentinel.assertUntouched();
  });

  it("trusted: the same link is read (the person chose to)", async () => {
    const { prompt, sentinel } = await promptWith("AGENTS.md", "sentinel", true);
    expect(prompt).toContain(SENTINEL_TEXT.trim());
    await sentinel.assertUntouched();
  });

  it("untrusted: a link to a file inside the workspace is read", async () => {
    const { prompt, notes } = await promptWith("CLAUDE.md", "inside", false);
    expect(prompt).toContain("Use tabs.");
    expect(notes).toEqual([]);
  });
});
