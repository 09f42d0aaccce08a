import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SaveLater } from "../../src/base/save-later.js";

describe("SaveLater", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("saves once, a delay after the first change, with the state at save time", () => {
    let state = 0;
    const saved: number[] = [];
    const later = new SaveLater(() => saved.push(state), 100);
    later.touch();
    state = 1;
    vi.advanceTimersByTime(60);
    later.touch();
    state = 2;
    vi.advanceTimersByTime(39);
    expect(saved).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(saved).toEqual([2]);
    vi.advanceTimersByTime(500);
    expect(saved).toEqual([2]);
  });

  it("flush saves now and cancels the save due; stop drops it", () => {
    const saved: string[] = [];
    const later = new SaveLater(() => saved.push("x"), 100);
    later.touch();
    later.flush();
    vi.advanceTimersByTime(200);
    expect(saved).toEqual(["x"]);
    later.touch();
    later.stop();
    vi.advanceTimersByTime(200);
    expect(saved).toEqual(["x"]);
  });
});
