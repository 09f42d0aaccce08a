import { describe, expect, it } from "vitest";
import { Bus } from "../../../src/tools/bus.js";
import { rulesFromConfig } from "../../../src/tools/permission/config.js";
import { PermissionEngine } from "../../../src/tools/permission/engine.js";
import { evaluate, explain } from "../../../src/tools/permission/evaluate.js";
import type { Ruleset } from "../../../src/tools/permission/types.js";

/**
 * `(unresolved) ...` patterns stand for what could not be judged before running (a command whose name is
 * made at run time, text piped into a shell). A catch-all allow does not cover them; a rule naming them does.
 */
const config = (permission: unknown): Ruleset => rulesFromConfig(permission, { home: "/home/me" });

describe("(unresolved) patterns", () => {
  it("are asked, not allowed, under a catch-all allow", () => {
    const rules = config({ "*": "allow", bash: { "*": "allow", "rm *": "deny" } });
    expect(evaluate("bash", "(unresolved) $x -rf y", rules).action).toBe("ask");
    expect(evaluate("bash", "$x -rf y", rules).action).toBe("allow");
    expect(evaluate("external_directory", "(unresolved) $HOME/x", config("allow")).action).toBe("ask");
  });

  it("are allowed by a rule that names them, and denied or asked like any pattern", () => {
    expect(evaluate("bash", "(unresolved) $x -rf y", config({ bash: { "*": "allow", "(unresolved) *": "allow" } })).action).toBe("allow");
    expect(evaluate("bash", "(unresolved) $x -rf y", config({ bash: { "(unresolved) *": "deny" } })).action).toBe("deny");
    expect(evaluate("bash", "(unresolved) $x -rf y", config({ bash: "deny" })).action).toBe("deny");
    expect(evaluate("bash", "(unresolved) $x -rf y", config({ bash: { "(unresolved) $x *": "allow" } })).action).toBe("allow");
  });

  it("explain agrees, and says why an allow did not count", () => {
    const layers = [{ source: "config" as const, rules: config({ bash: "allow" }) }];
    const explained = explain("bash", '(unresolved) eval "$X"', layers);
    expect(explained.action).toBe(evaluate("bash", '(unresolved) eval "$X"', layers[0]!.rules).action);
    expect(explained.action).toBe("ask");
    expect(explained.sentence).toMatch(/could not be judged/);
  });

  it("make the engine ask the user even when every rule allows", async () => {
    const bus = new Bus();
    const engine = new PermissionEngine({ bus });
    const asking = engine.ask(
      { sessionID: "s", permission: "bash", patterns: ["$x y", "(unresolved) $x y"], always: [], metadata: {} },
      config("allow"),
    );
    expect(engine.pending()).toHaveLength(1);
    engine.reply(engine.pending()[0]!.id, "once");
    await expect(asking).resolves.toBeUndefined();
  });
});
