/**
 * A share file picked or dropped on the page is refused by its size before it is read: a careless pick of
 * a multi-gigabyte .json (or a file renamed .workbench.json) must not be read whole into the tab's memory
 * only to be refused afterwards. Nothing is read and nothing is written.
 */
import { describe, expect, it } from "vitest";
import { openShareFile } from "../../src/embed/share/browser.js";
import { MAX_SHARE_FILE_BYTES } from "../../src/embed/share/limits.js";

describe("a share file too big to be one is refused unread", () => {
  it("refuses by File.size, without calling arrayBuffer", async () => {
    let read = false;
    const huge = new File(["{}"], "movie.workbench.json");
    Object.defineProperty(huge, "size", { value: 3 * 1024 * 1024 * 1024 });
    huge.arrayBuffer = async () => {
      read = true;
      return new ArrayBuffer(0);
    };
    await expect(openShareFile(huge, { origin: "https://workbench.example", pathname: "/" })).rejects.toThrow(/larger than .* MB/);
    expect(read).toBe(false);
    expect(MAX_SHARE_FILE_BYTES).toBeLessThan(huge.size);
  });
});
