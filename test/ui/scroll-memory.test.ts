import { describe, expect, it } from "vitest";
import { readScroll, scrollState, scrollTarget, writeScroll } from "../../src/ui/tools/scroll-memory.js";

class MapStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe("contract: the call list's place across a reload", () => {
  it("a list never seen opens at its end (the newest call); one left at the end opens at the new end", () => {
    expect(scrollTarget(undefined, 5000, 600)).toBe(4400);
    expect(scrollTarget({ top: 1000, atEnd: true }, 8000, 600)).toBe(7400);
    expect(scrollTarget(undefined, 300, 600)).toBe(0);
  });

  it("a place in the middle comes back as it was, within what the list now holds", () => {
    expect(scrollTarget({ top: 1234, atEnd: false }, 5000, 600)).toBe(1234);
    expect(scrollTarget({ top: 9000, atEnd: false }, 5000, 600)).toBe(4400);
    expect(scrollTarget({ top: -5, atEnd: false }, 5000, 600)).toBe(0);
  });

  it("at the end means within a few pixels of it", () => {
    expect(scrollState(4395.5, 5000, 600)).toEqual({ top: 4396, atEnd: true });
    expect(scrollState(4000, 5000, 600)).toEqual({ top: 4000, atEnd: false });
  });

  it("what is saved is read back; anything else reads as nothing saved", () => {
    const storage = new MapStorage();
    writeScroll(storage, "k", { top: 10, atEnd: false });
    expect(readScroll(storage, "k")).toEqual({ top: 10, atEnd: false });
    for (const garbage of ["{", "5", '{"top":"1","atEnd":false}', '{"top":1}', "null"]) {
      storage.setItem("bad", garbage);
      expect(readScroll(storage, "bad")).toBeUndefined();
    }
    expect(readScroll(undefined, "k")).toBeUndefined();
    expect(() =>
      writeScroll(
        {
          setItem: () => {
            throw new Error("quota");
          },
        },
        "k",
        { top: 1, atEnd: true },
      ),
    ).not.toThrow();
  });
});
