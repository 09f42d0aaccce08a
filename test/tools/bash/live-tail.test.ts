/**
 * Past MAX_METADATA_LENGTH the live view keeps OpenCode's head ("...") and also carries the output's
 * latest characters, so a person watching a long command sees where it is now.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../../src/runtime/types.js";
import { MAX_METADATA_LENGTH } from "../../../src/tools/bash.js";
import { bashBackends, runBash } from "./harness.js";

describe.each(bashBackends)("the live view of a long output on $name", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ runtime, cleanup } = await backend.create()));
  afterEach(async () => cleanup());

  it("keeps the head as the seed has it and moves a tail of the latest output", async () => {
    // 20,000 numbered lines (~109 KB), well past the 30,000 characters the head holds.
    const { result, updates } = await runBash(runtime, { command: "seq 1 20000", description: "Counts" });
    expect(result.metadata.exit).toBe(0);
    const withTail = updates.filter((update) => update.tail !== undefined);
    expect(withTail.length).toBeGreaterThan(0);
    for (const update of withTail) {
      expect(update.output.endsWith("\n\n...")).toBe(true);
      expect(update.output.length).toBe(MAX_METADATA_LENGTH + "\n\n...".length);
      expect(update.tail!.length).toBeLessThanOrEqual(MAX_METADATA_LENGTH);
      expect(update.tailOffset).toBeGreaterThan(0);
    }
    // Each tail is the output's text at its offset (the whole output is known: seq's).
    const whole = Array.from({ length: 20000 }, (_, k) => `${k + 1}\n`).join("");
    for (const update of withTail) expect(whole.slice(update.tailOffset!, update.tailOffset! + update.tail!.length)).toBe(update.tail);
    // Updates before the head filled up carry no tail; the finished call's metadata has none either.
    expect(updates[0]!.tail).toBeUndefined();
    expect(result.metadata).not.toHaveProperty("tail");
  });
});
