import { describe, expect, it } from "vitest";
import { deriveBashPermissions, permissionAsks } from "../../../src/tools/bash/index.js";
import { Bus, type BusEvents } from "../../../src/tools/bus.js";
import { rulesFromConfig } from "../../../src/tools/permission/config.js";
import { PermissionEngine } from "../../../src/tools/permission/engine.js";
import { DeniedError } from "../../../src/tools/permission/errors.js";
import { fakeFs } from "./fake-fs.js";

/**
 * OpenCode issue #16075: `CI=true git commit` slipped past a `git commit *` rule because the pattern held
 * the assignment. Here the derived asks go through the real permission engine, with real config rules.
 */
const fs = fakeFs({ dirs: ["/ws"] });

async function decide(command: string, permission: unknown) {
  const bus = new Bus();
  const asked: BusEvents["permission.asked"][] = [];
  bus.subscribe("permission.asked", (request) => asked.push(request));
  const engine = new PermissionEngine({ bus });
  const ruleset = rulesFromConfig(permission, { home: "/home/me" });
  const derived = await deriveBashPermissions(command, { root: "/ws", workdir: "/ws", fs });
  for (const ask of permissionAsks(derived)) {
    let settled: unknown = "pending";
    engine.ask({ sessionID: "s", ...ask }, ruleset).then(
      () => (settled = "allow"),
      (error: unknown) => (settled = error),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A request still waiting for the user is as far as the rules go.
    if (settled === "pending") return { decision: engine.pending().length > 0 ? ("ask" as const) : ("error" as const), asked };
    if (settled !== "allow") return { decision: settled instanceof DeniedError ? ("deny" as const) : ("error" as const), asked };
  }
  return { decision: "allow" as const, asked };
}

const denyCommit = { bash: { "*": "allow", "git commit *": "deny" } };
const askCommit = { bash: { "*": "allow", "git commit *": "ask" } };

describe("a leading VAR=value does not get a command past its rule", () => {
  it.each(["git commit -m x", "CI=true git commit -m x", "CI=true GIT_AUTHOR_NAME=x git commit -m x", 'A="a b" git commit --amend'])(
    "deny rule: %s is denied",
    async (command) => {
      expect((await decide(command, denyCommit)).decision).toBe("deny");
    },
  );

  it.each(["git commit -m x", "CI=true git commit -m x", "HUSKY=0 git commit --no-verify -m x"])("ask rule: %s asks", async (command) => {
    const { decision, asked } = await decide(command, askCommit);
    expect(decision).toBe("ask");
    expect(asked[0]?.permission).toBe("bash");
    expect(asked[0]?.patterns).toContain(command);
  });

  it("still allows what the rules allow, with or without a prefix", async () => {
    expect((await decide("CI=true git status", denyCommit)).decision).toBe("allow");
    expect((await decide("git status", denyCommit)).decision).toBe("allow");
  });

  it("a rule written for the prefixed form also holds", async () => {
    const rules = { bash: { "*": "allow", "CI=* *": "deny" } };
    expect((await decide("CI=true git status", rules)).decision).toBe("deny");
    expect((await decide("git status", rules)).decision).toBe("allow");
  });

  it.each([
    "sudo git commit -m x",
    "env CI=1 git commit -m x",
    "command git commit -m x",
    "timeout 60 git commit -m x",
    "git add . && CI=1 git commit -m x",
    "echo $(CI=1 git commit -m x)",
  ])("wrappers and nesting do not help either: %s is denied", async (command) => {
    expect((await decide(command, denyCommit)).decision).toBe("deny");
  });

  it("'always' on the prefixed form stores both readings, so the same call does not ask again", async () => {
    const bus = new Bus();
    const asked: BusEvents["permission.asked"][] = [];
    bus.subscribe("permission.asked", (request) => asked.push(request));
    const engine = new PermissionEngine({ bus });
    const ruleset = rulesFromConfig({ bash: "ask" }, { home: "/home/me" });
    const [ask] = permissionAsks(await deriveBashPermissions("CI=true git commit -m x", { root: "/ws", workdir: "/ws", fs }));
    const first = engine.ask({ sessionID: "s", ...ask! }, ruleset);
    engine.reply(asked[0]!.id, "always");
    await first;
    const [again] = permissionAsks(await deriveBashPermissions("CI=true git commit -m other", { root: "/ws", workdir: "/ws", fs }));
    await expect(engine.ask({ sessionID: "s", ...again! }, ruleset)).resolves.toBeUndefined();
    expect(asked).toHaveLength(1);
  });
});
