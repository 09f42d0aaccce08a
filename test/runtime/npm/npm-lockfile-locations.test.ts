/** Which lockfile locations the embedded npm acts on: package folders under node_modules, nested or scoped, and nothing else. */
import { describe, expect, it } from "vitest";
import { isValidLocation } from "../../../src/runtime/embedded/npm/lockfile.js";

describe("lockfile locations", () => {
  it("accepts package folders, scoped and nested", () => {
    for (const location of [
      "node_modules/leaf",
      "node_modules/@scope/util",
      "node_modules/with-deps/node_modules/leaf",
      "node_modules/@scope/util/node_modules/@other/x/node_modules/y.js",
    ])
      expect({ location, valid: isValidLocation(location) }).toEqual({ location, valid: true });
  });

  it("refuses anything that is not one, whatever path tricks it holds", () => {
    for (const location of [
      "",
      "leaf",
      "node_modules/",
      "node_modules/../x",
      "node_modules/../../victim",
      "node_modules/a/../../b",
      "node_modules/a/b/c",
      "node_modules/a/node_modules/",
      "node_modules/a//node_modules/b",
      "node_modules/@scope/../x",
      "node_modules/a/node_modules/node_modules/b",
      "../node_modules/a",
      "/node_modules/a",
    ])
      expect({ location, valid: isValidLocation(location) }).toEqual({ location, valid: false });
  });
});
