import { createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import { createOpenFiles } from "../../src/ui/files/open-files.js";

const withFiles = <T>(fn: (files: ReturnType<typeof createOpenFiles>) => T): T => createRoot((dispose) => {
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
});
