/** Share links and .workbench.json files: what goes in comes out, byte for byte, and nothing secret goes in. */
import { describe, expect, it } from "vitest";
import { decodeShareLink, encodeShareLink, fromShareFile, toShareFile, type ShareState } from "../../src/embed/share/index.js";
import { SessionFile } from "../../src/session/record/session-json.js";
import { fixtureFiles, fixtureSession } from "../support/share-fixture.js";

function state(): ShareState {
  const files = fixtureFiles(20);
  files["ünïcödé/名前 with space.txt"] = "héllo wörld ✓\n";
  files["empty.txt"] = "";
  // Defined, not assigned: assigning __proto__ would set the object's prototype instead of adding a file.
  Object.defineProperty(files, "__proto__", {
    value: "a file with an awkward name\n",
    enumerable: true,
    configurable: true,
    writable: true,
  });
  return {
    name: "My demo",
    files,
    config: '{ "model": "anthropic/claude-sonnet-4" }\n',
    session: fixtureSession(30, files),
    view: { panes: ["chat", "editor"], open: ["README.md"], theme: "dark" },
  };
}

function expectSameFiles(actual: ShareState["files"], expected: ShareState["files"]) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [path, content] of Object.entries(expected)) {
    const back = actual[path];
    if (typeof content === "string") expect(back, path).toBe(content);
    else {
      expect(back, path).toBeInstanceOf(Uint8Array);
      expect(Array.from(back as Uint8Array), path).toEqual(Array.from(content));
    }
  }
}

describe("share links", () => {
  it("round-trips files (text, binary, non-ASCII and awkward names), config, session and view", async () => {
    const original = state();
    const link = await encodeShareLink(original, "https://workbench.example/app/?x=1#old");
    expect(link.startsWith("https://workbench.example/app/?x=1#share=1.")).toBe(true);
    expect(link).toMatch(/^[\x21-\x7e]+$/);
    const decoded = await decodeShareLink(link);
    if (!decoded.ok) throw new Error(decoded.error);
    expectSameFiles(decoded.state.files, original.files);
    expect(Object.hasOwn(decoded.state.files, "__proto__")).toBe(true);
    expect(decoded.state.name).toBe("My demo");
    expect(decoded.state.config).toBe(original.config);
    expect(decoded.state.view).toEqual(original.view);
    expect(SessionFile.parse(decoded.state.session)).toEqual(original.session);
  });

  it("accepts the whole address, the hash or the payload alone", async () => {
    const link = await encodeShareLink({ files: { "a.txt": "A" } }, "http://127.0.0.1:5173/");
    const hash = link.slice(link.indexOf("#"));
    for (const form of [link, hash, hash.slice("#share=".length)]) {
      const decoded = await decodeShareLink(form);
      expect(decoded.ok && decoded.state.files["a.txt"]).toBe("A");
    }
  });

  it("is deterministic: the same state makes the same link", async () => {
    const a = await encodeShareLink(state(), "https://w.example/");
    const b = await encodeShareLink(state(), "https://w.example/");
    expect(a).toBe(b);
  });

  it("keeps a 20-file, 30-call share under 32 KB", async () => {
    const link = await encodeShareLink(state(), "https://w.example/");
    expect(link.length).toBeLessThan(32 * 1024);
  });
});

describe(".workbench.json files", () => {
  it("round-trip the same state, binary as base64url and text as text", () => {
    const original = state();
    const text = toShareFile(original);
    const json = JSON.parse(text) as { format: string; files: Array<{ path: string; text?: string; base64url?: string }> };
    expect(json.format).toBe("workbench-share");
    expect(json.files.find((f) => f.path === "README.md")?.text).toContain("# Demo");
    expect(json.files.find((f) => f.path === "assets/logo.bin")?.base64url).toMatch(/^[\w-]+$/);
    const back = fromShareFile(text);
    if (!back.ok) throw new Error(back.error);
    expectSameFiles(back.state.files, original.files);
    expect(back.state.session).toEqual(original.session);
    const fromBytes = fromShareFile(new TextEncoder().encode(text));
    expect(fromBytes.ok).toBe(true);
  });
});
