/**
 * Issue 25, item 15: the plan agent, which must not change the project (its edit rule denies everything
 * but its plan files), changed files through bash (`echo >`, `sed -i`, `rm -rf`) with no prompt, since bash
 * was allowed for every agent. Its bash now asks for anything but a few commands that only look, and for
 * any redirection on those.
 */
import { describe, expect, it } from "vitest";
import { deriveBashPermissions } from "../../src/tools/bash/index.js";
import { agentRules } from "../../src/tools/permission/agents.js";
import { evaluate } from "../../src/tools/permission/evaluate.js";
import type { Action } from "../../src/tools/permission/types.js";
import { fakeFs } from "../tools/bash/fake-fs.js";

const fs = fakeFs({ dirs: ["/w", "/w/src"], files: ["/w/a.txt"] });
const options = { dataDir: "/data", toolOutputGlob: "/data/tool-output/*", worktree: "/w" };

/** What a bash call asks under `agent`'s rules: deny if any pattern is denied, ask if any asks, else allow. */
async function decision(agent: "plan" | "build", command: string): Promise<Action> {
  const rules = agentRules(agent, options);
  const derived = await deriveBashPermissions(command, { root: "/w", workdir: "/w", fs });
  const actions = derived.bash.patterns.map((pattern) => evaluate("bash", pattern, rules).action);
  return actions.includes("deny") ? "deny" : actions.includes("ask") ? "ask" : "allow";
}

const writes = [
  "echo x > a.txt",
  "echo x >> a.txt",
  "cat a.txt > b.txt",
  "ls > listing.txt",
  "grep x a.txt > found.txt",
  "sed -i s/a/b/ a.txt",
  "rm -rf src",
  "touch new.txt",
  "mkdir build",
  "cp a.txt b.txt",
  "mv a.txt b.txt",
  "tee b.txt < a.txt",
  "git commit -am wip",
  "git checkout -- a.txt",
  "npm install",
  "python3 -c \"open('a.txt','w')\"",
  "find . -name '*.txt' -delete",
  "git status && rm a.txt",
];

describe("the plan agent's bash changes nothing unasked", () => {
  it.each(writes)("%j asks under the plan agent", async (command) => {
    expect(await decision("plan", command)).not.toBe("allow");
  });

  it.each(["ls -la", "ls", "pwd", "cat a.txt", "head -n 5 a.txt", "grep -n x a.txt", "git status", "wc -l a.txt"])(
    "control: %j, which only looks, runs unasked under the plan agent",
    async (command) => {
      expect(await decision("plan", command)).toBe("allow");
    },
  );

  it("control: the build agent is unchanged (OpenCode's default allows bash)", async () => {
    expect(await decision("build", "echo x > a.txt")).toBe("allow");
  });
});
