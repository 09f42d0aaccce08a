/**
 * Reading an index's project page as PyPI serves it (PEP 503 HTML with entities, fragments and data-
 * attributes; PEP 691 JSON with relative URLs), and choosing among its files: a wheel whose Requires-Python
 * excludes 3.14 and a yanked one are passed over, and a project with only an sdist is refused by name.
 */
import { describe, expect, it } from "vitest";
import { parseSimpleHtml, parseSimpleJson } from "../../../src/runtime/embedded/pip/index-client.js";
import { pickFile } from "../../../src/runtime/embedded/pip/resolve.js";

const SHA_A = "a".repeat(64);
const SHA_B = "b".repeat(64);

describe("project pages", () => {
  it("PEP 503 HTML: absolute and relative links, the sha256 fragment, Requires-Python unescaped, yanked", () => {
    const html = `<!DOCTYPE html><html><body><h1>Links for demo</h1>
<a href="https://files.example.org/packages/ab/cd/demo-1.0-py3-none-any.whl#sha256=${SHA_A}" data-requires-python="&gt;=3.8" data-dist-info-metadata="sha256=${SHA_B}" data-core-metadata="sha256=${SHA_B}">demo-1.0-py3-none-any.whl</a><br />
<a href='../../files/demo-2.0-py3-none-any.whl#sha256=${SHA_B}' data-requires-python="&gt;=3.15" >demo-2.0-py3-none-any.whl</a><br />
<a href="../../files/demo-2.1-py3-none-any.whl" data-yanked="">demo-2.1-py3-none-any.whl</a>
<a href="../../files/demo-2.2.tar.gz#sha256=${SHA_A}">demo-2.2.tar.gz</a>
</body></html>`;
    expect(parseSimpleHtml(html, "http://127.0.0.1:9/simple/demo/")).toEqual([
      {
        filename: "demo-1.0-py3-none-any.whl",
        url: "https://files.example.org/packages/ab/cd/demo-1.0-py3-none-any.whl",
        sha256: SHA_A,
        requiresPython: ">=3.8",
        yanked: false,
      },
      {
        filename: "demo-2.0-py3-none-any.whl",
        url: "http://127.0.0.1:9/files/demo-2.0-py3-none-any.whl",
        sha256: SHA_B,
        requiresPython: ">=3.15",
        yanked: false,
      },
      {
        filename: "demo-2.1-py3-none-any.whl",
        url: "http://127.0.0.1:9/files/demo-2.1-py3-none-any.whl",
        sha256: undefined,
        requiresPython: undefined,
        yanked: true,
      },
      {
        filename: "demo-2.2.tar.gz",
        url: "http://127.0.0.1:9/files/demo-2.2.tar.gz",
        sha256: SHA_A,
        requiresPython: undefined,
        yanked: false,
      },
    ]);
  });

  it("PEP 691 JSON: URLs resolved against the page, hashes lower-cased, a yanked reason counts as yanked", () => {
    const json = JSON.stringify({
      meta: { "api-version": "1.1" },
      name: "demo",
      files: [
        {
          filename: "demo-1.0-py3-none-any.whl",
          url: "/files/demo-1.0-py3-none-any.whl",
          hashes: { sha256: SHA_A.toUpperCase() },
          "requires-python": ">=3.8",
        },
        { filename: "demo-1.1-py3-none-any.whl", url: "https://cdn.example.org/demo-1.1-py3-none-any.whl", hashes: {}, yanked: "broken" },
        { url: "no filename: left out" },
      ],
    });
    expect(parseSimpleJson(json, "https://index.example.org/simple/demo/")).toEqual([
      {
        filename: "demo-1.0-py3-none-any.whl",
        url: "https://index.example.org/files/demo-1.0-py3-none-any.whl",
        sha256: SHA_A,
        requiresPython: ">=3.8",
        yanked: false,
      },
      {
        filename: "demo-1.1-py3-none-any.whl",
        url: "https://cdn.example.org/demo-1.1-py3-none-any.whl",
        sha256: undefined,
        requiresPython: undefined,
        yanked: true,
      },
    ]);
  });
});

describe("choosing a file", () => {
  const file = (filename: string, extra: { requiresPython?: string; yanked?: boolean } = {}) => ({
    filename,
    url: `http://index/${filename}`,
    yanked: extra.yanked ?? false,
    requiresPython: extra.requiresPython,
  });

  it("passes over a wheel for another Python and a yanked one, unless it is pinned", () => {
    const files = [
      file("demo-1.0-py3-none-any.whl"),
      file("demo-2.0-py3-none-any.whl", { requiresPython: ">=3.15" }),
      file("demo-2.1-py3-none-any.whl", { yanked: true }),
      file("demo-2.2-cp314-cp314-emscripten_4_0_9_wasm32.whl"),
    ];
    expect(pickFile("demo", files, "").filename).toBe("demo-1.0-py3-none-any.whl");
    expect(pickFile("demo", files, "==2.1").filename).toBe("demo-2.1-py3-none-any.whl");
    expect(() => pickFile("demo", files, "==2.0")).toThrow(/every matching wheel requires a Python other than 3\.14\.2 \(>=3\.15\)/);
    expect(() => pickFile("demo", files, ">=2.2")).toThrow(/demo has no pure-Python wheel \(py3-none-any\)[^\n]*demo-2\.2-cp314/);
  });

  it("a project with only an sdist is refused by name, saying what this pip installs", () => {
    expect(() => pickFile("onlysource", [file("onlysource-0.3.tar.gz")], "")).toThrow(
      /onlysource has no pure-Python wheel \(py3-none-any\) on the index for any version: only onlysource-0\.3\.tar\.gz/,
    );
  });
});
