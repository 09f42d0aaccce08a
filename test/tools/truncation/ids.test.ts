/** Saved-output names: ascending, unique, and carrying a readable timestamp. */
import { describe, expect, it } from "vitest";
import { createToolIdGenerator, isToolId, nextToolId, toolIdTimestamp } from "../../../src/tools/truncation/index.js";

describe("tool ids", () => {
  it("ascend and never repeat, even many within one millisecond", () => {
    const ids = Array.from({ length: 20_000 }, () => nextToolId());
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("start with tool_ and carry the millisecond they were made at", () => {
    const before = Date.now();
    const id = nextToolId();
    const after = Date.now();
    expect(id.startsWith("tool_")).toBe(true);
    expect(isToolId(id)).toBe(true);
    const at = toolIdTimestamp(id)!;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });

  it("read back an exact timestamp from a given clock", () => {
    const next = createToolIdGenerator(() => Date.UTC(2020, 0, 1));
    expect(toolIdTimestamp(next())).toBe(Date.UTC(2020, 0, 1));
  });

  it("keep ascending within one frozen millisecond, past the sequence range", () => {
    const next = createToolIdGenerator(() => 1_000);
    let previous = next();
    for (let i = 0; i < 70_000; i++) {
      const id = next();
      expect(id > previous).toBe(true);
      previous = id;
    }
    // 65,536 per millisecond, then the generator borrows the next one
    expect(toolIdTimestamp(previous)).toBe(1_001);
  });

  it("keep ascending when the clock steps back", () => {
    const times = [5_000, 4_000, 4_500, 6_000];
    const next = createToolIdGenerator(() => times.shift()!);
    const ids = [next(), next(), next(), next()];
    expect([...ids].sort()).toEqual(ids);
    expect(ids.map((id) => toolIdTimestamp(id))).toEqual([5_000, 5_000, 5_000, 6_000]);
  });

  it("refuse names that are not ids", () => {
    for (const name of ["tool_", "tool_123", "notes.txt", "tool_ZZZZZZZZZZZZZZZZ0123456789", `x${nextToolId()}`]) {
      expect(isToolId(name)).toBe(false);
      expect(toolIdTimestamp(name)).toBeUndefined();
    }
  });
});
