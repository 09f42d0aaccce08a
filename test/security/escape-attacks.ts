/**
 * One shape for the shell's way-out attacks (bash-url-and-list-escapes, bash-configs-and-helpers): on the
 * node and embedded runtimes, every attack asks `external_directory` first under OpenCode's default rules
 * and leaves the sentinel beside the workspace as it was; each control runs without asking; and on node each
 * attack with an effect also runs with everything allowed, to show it is real (a read prints the sentinel, a
 * write adds a file beside it). In a command, `ABS` is the sentinel's folder and `OUT` the same folder
 * relative to the workspace.
 */
import { relative } from "pathe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime/types.js";
import { bashBackends } from "../tools/bash/harness.js";
import { runWithRules } from "./bash-permissions.js";
import { plantSentinel, SENTINEL_TEXT, type Sentinel } from "./sentinel.js";

export type Effect = "reads" | "writes";

const defaults = { "*": "allow", external_directory: { "*": "ask" } };
const everything = { "*": { "*": "allow", "(unresolved) *": "allow" } };

export function describeEscapeAttacks(
  title: string,
  cases: { attacks: [command: string, effect: Effect][]; askedOnly: string[]; controls: string[] },
): void {
  const backends = bashBackends.filter((b) => b.name === "node" || b.name === "embedded");
  describe.each(backends)(`${title} ($name)`, (backend) => {
    let runtime: Runtime;
    let cleanup: () => Promise<void>;
    let sentinel: Sentinel;

    beforeEach(async () => {
      ({ runtime, cleanup } = await backend.create());
      sentinel = await plantSentinel(runtime);
      await runtime.fs.writeFile(`${runtime.root}/a.txt`, "inside\n");
    });
    afterEach(async () => {
      await sentinel.dispose();
      await cleanup();
    });

    const spell = (command: string) => command.replaceAll("ABS", sentinel.dir).replaceAll("OUT", relative(runtime.root, sentinel.dir));

    it.each([...cases.attacks.map(([command]) => command), ...cases.askedOnly])("%j asks external_directory first", async (command) => {
      const outcome = await runWithRules(runtime, spell(command), defaults);
      expect(outcome.kind).toBe("asked");
      if (outcome.kind === "asked") expect(outcome.asked.permission).toBe("external_directory");
      await sentinel.assertUntouched();
    });

    it.each(cases.controls)("control: %j stays inside and runs without asking", async (command) => {
      const outcome = await runWithRules(runtime, command, defaults);
      expect(outcome.kind).toBe("ran");
      await sentinel.assertUntouched();
    });

    if (backend.name === "node") {
      it.each(cases.attacks)("the attack is real: %j %s the sentinel when everything is allowed", async (command, effect) => {
        const outcome = await runWithRules(runtime, spell(command), everything);
        expect(outcome.kind).toBe("ran");
        if (outcome.kind !== "ran") return;
        if (effect === "reads") expect(outcome.run.result.output).toContain(SENTINEL_TEXT.trim());
        else await expect(sentinel.assertUntouched()).rejects.toThrow();
      });
    }
  });
}
