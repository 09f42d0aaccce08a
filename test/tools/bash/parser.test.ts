import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { BashParseError, bashParser, deriveBashPermissions, parseBash, setBashWasmLocation } from "../../../src/tools/bash/index.js";
import { fakeFs } from "./fake-fs.js";

/**
 * Loading the tree-sitter wasm: once, lazily, from wherever the host says; a failed load is reported with
 * what to check and is retried by the next call instead of sticking. (Its own file: the location is global.)
 */
const grammar = new URL("../../../node_modules/tree-sitter-bash/tree-sitter-bash.wasm", import.meta.url);

describe("the bash parser", () => {
  it("loads once: every caller gets the same parser", async () => {
    const [a, b] = await Promise.all([bashParser(), bashParser()]);
    expect(a).toBe(b);
    expect(await bashParser()).toBe(a);
  });

  it("finds every command node at any depth", async () => {
    const tree = await parseBash("a | b && (c; echo $(d `e`)) <<EOF\n$(f)\nEOF");
    try {
      expect(tree.rootNode.descendantsOfType("command").map((n) => n?.childForFieldName("name")?.text)).toEqual([
        "a",
        "b",
        "c",
        "echo",
        "d",
        "e",
        "f",
      ]);
    } finally {
      tree.delete();
    }
  });

  it("reports a location that cannot be loaded, saying what to check, and tries again on the next call", async () => {
    setBashWasmLocation({ language: "/nonexistent/tree-sitter-bash.wasm" });
    const failure = await bashParser().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BashParseError);
    expect((failure as Error).message).toMatch(/Failed to load the bash parser .*public\/wasm/);

    // The host fixes its location (here: the grammar's bytes, as a host with its own loader would pass them).
    setBashWasmLocation({ language: new Uint8Array(await readFile(grammar)) });
    const result = await deriveBashPermissions("git log --oneline", { root: "/ws", workdir: "/ws", fs: fakeFs({ dirs: ["/ws"] }) });
    expect(result.bash.always).toEqual(["git log *"]);
  });
});
