import { createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import { createTreeState, type TreeMemory } from "../../src/ui/files/tree-state.js";

class MapStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const inRoot = <T>(fn: () => T): T =>
  createRoot((dispose) => {
    try {
      return fn();
    } finally {
      dispose();
    }
  });

describe("contract: the file tree remembers its open folders", () => {
  it("a reload opens the same folders; a closed one stays closed", () => {
    const memory: TreeMemory = { storage: new MapStorage(), key: "tree:w" };
    inRoot(() => {
      const tree = createTreeState(memory);
      tree.toggle("/w/src");
      tree.toggle("/w/src/lib");
      tree.toggle("/w/docs");
      tree.toggle("/w/docs");
    });
    inRoot(() => {
      const tree = createTreeState(memory);
      expect(tree.openPaths()).toEqual(["/w/src", "/w/src/lib"]);
      expect(tree.isOpen("/w/docs")).toBe(false);
    });
  });

  it("a renamed folder keeps its open folders under the new name, and a sibling with a longer name is left alone", () => {
    inRoot(() => {
      const tree = createTreeState();
      for (const path of ["/w/src", "/w/src/lib", "/w/srcx", "/w/other"]) tree.setOpen(path, true);
      tree.moved("/w/src", "/w/app");
      expect(tree.openPaths()).toEqual(["/w/app", "/w/app/lib", "/w/other", "/w/srcx"]);
    });
  });

  it("a deleted folder forgets itself and what is under it, only that", () => {
    inRoot(() => {
      const tree = createTreeState();
      for (const path of ["/w/a", "/w/a/b", "/w/ab"]) tree.setOpen(path, true);
      tree.removed("/w/a");
      expect(tree.openPaths()).toEqual(["/w/ab"]);
    });
  });

  it("garbage in storage, or storage that refuses writes, opens everything closed and still works", () => {
    const storage = new MapStorage();
    for (const garbage of ["{", '"x"', '{"a":1}', "[1, null]"]) {
      storage.setItem("k", garbage);
      inRoot(() => expect(createTreeState({ storage, key: "k" }).openPaths()).toEqual([]));
    }
    inRoot(() => {
      const tree = createTreeState({
        storage: {
          getItem: () => null,
          setItem: () => {
            throw new Error("quota");
          },
        },
        key: "k",
      });
      tree.toggle("/w/x");
      expect(tree.isOpen("/w/x")).toBe(true);
    });
  });
});
