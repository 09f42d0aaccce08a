/**
 * A running program's output is in the bash tool's live metadata (what the card shows) before the program
 * ends, on the embedded runtime (node in its sandbox) as on the node runtime (a real process).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../../src/runtime/types.js";
import { bashBackends, runBash } from "./harness.js";

describe.each(bashBackends.filter((backend) => backend.name !== "webcontainer (stand-in)"))(
  "a running program in the card on $name",
  (backend) => {
    let runtime: Runtime;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ runtime, cleanup } = await backend.create());
      await runtime.fs.writeFile(`${runtime.root}/slow.js`, 'console.log("first");\nsetTimeout(() => console.log("second"), 300);\n');
    });
    afterAll(async () => cleanup());

    it("the first line is in the metadata at least 200 ms before the call ends", { timeout: 30_000 }, async () => {
      let firstSeenAt: number | undefined;
      const { result, updates } = await runBash(
        runtime,
        { command: "node slow.js", description: "Prints twice" },
        {
          onUpdate: (output) => {
            if (output === "first\n") firstSeenAt ??= performance.now();
          },
        },
      );
      const endedAt = performance.now();
      expect(result.metadata.exit).toBe(0);
      expect(result.output).toBe("first\nsecond\n");
      expect(firstSeenAt, JSON.stringify(updates.map((update) => update.output))).toBeDefined();
      expect(endedAt - firstSeenAt!).toBeGreaterThanOrEqual(200);
    });
  },
);
