import { createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import { createOpenFiles, type TabsMemory } from "../../src/ui/files/open-files.js";

const withFiles = <T>(fn: (files: ReturnType<typeof createOpenFiles>) => T): T =>
  createRoot((dispose) => {
    try {
      return fn(createOpenFiles());
    } finally {
      dispose();
    }
  });

describe("contract: the middle column's tabs", () => {
  it("opens a file once, however often it is opened, and shows it", () => {
    withFiles((files) => {
      files.open("/w/a.ts");
      files.open("/w/b.ts");
      files.open("/w/a.ts");
      expect(files.files().map((f) => f.path)).toEqual(["/w/a.ts", "/w/b.ts"]);
      expect(files.active()).toBe("/w/a.ts");
    });
  });

  it("closing the shown file shows the tab before it, or the terminal when it was first", () => {
    withFiles((files) => {
      for (const name of ["a", "b", "c"]) files.open(`/w/${name}`);
      files.show("/w/b");
      files.close("/w/b");
      expect(files.active()).toBe("/w/a");
      files.close("/w/a");
      expect(files.active()).toBeUndefined();
      expect(files.files().map((f) => f.path)).toEqual(["/w/c"]);
    });
  });

  it("closing a file that is not shown leaves the shown one, and keeps each file's dirty flag its own", () => {
    withFiles((files) => {
      files.open("/w/a");
      files.open("/w/b");
      files.files()[0]!.setDirty(true);
      files.close("/w/a");
      expect(files.active()).toBe("/w/b");
      expect(files.files()[0]!.dirty()).toBe(false);
      files.close("/w/missing");
      expect(files.files()).toHaveLength(1);
    });
  });

  it("a hit opened twice at the same place asks the editor twice; opening without a place asks nothing new", () => {
    withFiles((files) => {
      files.open("/w/a.ts", { line: 3, from: 4, to: 7 });
      const first = files.files()[0]!.reveal();
      expect(first).toMatchObject({ line: 3, from: 4, to: 7 });
      files.open("/w/a.ts", { line: 3, from: 4, to: 7 });
      const second = files.files()[0]!.reveal();
      expect(second?.seq).not.toBe(first?.seq);
      files.open("/w/a.ts");
      expect(files.files()[0]!.reveal()).toBe(second);
    });
  });
});

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

describe("contract: the open tabs survive a reload", () => {
  it("a reload brings back the same tabs in the same order, with the same one in front", () => {
    const storage = new MapStorage();
    const memory: TabsMemory = { storage, key: "tabs:w" };
    inRoot(() => {
      const files = createOpenFiles(memory);
      files.open("/w/a.ts");
      files.open("/w/b.ts");
      files.open("/w/c.ts");
      files.close("/w/c.ts");
      files.show("/w/a.ts");
    });
    inRoot(() => {
      const again = createOpenFiles(memory);
      expect(again.files().map((f) => f.path)).toEqual(["/w/a.ts", "/w/b.ts"]);
      expect(again.active()).toBe("/w/a.ts");
      again.showTerminal();
    });
    inRoot(() => expect(createOpenFiles(memory).active()).toBeUndefined());
  });

  it("another workspace's key, or garbage under ours, opens with the terminal alone", () => {
    const storage = new MapStorage();
    inRoot(() => createOpenFiles({ storage, key: "tabs:one" }).open("/w/a.ts"));
    inRoot(() => expect(createOpenFiles({ storage, key: "tabs:two" }).files()).toEqual([]));
    for (const garbage of ["{", "null", '{"paths":"x"}', "[1,2]"]) {
      storage.setItem("tabs:bad", garbage);
      inRoot(() => {
        const files = createOpenFiles({ storage, key: "tabs:bad" });
        expect(files.files()).toEqual([]);
        expect(files.active()).toBeUndefined();
      });
    }
    storage.setItem("tabs:mixed", JSON.stringify({ paths: ["/w/a", 3, "/w/b"], active: "/w/gone" }));
    inRoot(() => {
      const files = createOpenFiles({ storage, key: "tabs:mixed" });
      expect(files.files().map((f) => f.path)).toEqual(["/w/a", "/w/b"]);
      expect(files.active()).toBeUndefined();
    });
  });

  it("storage that refuses writes loses the memory, not the tabs", () => {
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    inRoot(() => {
      const files = createOpenFiles({ storage, key: "k" });
      files.open("/w/a.ts");
      expect(files.active()).toBe("/w/a.ts");
    });
  });
});
