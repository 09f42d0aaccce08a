/**
 * The preview's builder, against answers fixed outside it: node resolves the same packages to the same
 * files and sees the same named exports of a CommonJS package; the source's lines stay where they were.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { PreviewBuildError, PreviewBuilder, type FrameBlob } from "../../../src/workspace/preview/build.js";
import { resolveImport } from "../../../src/workspace/preview/resolve.js";
import { folderWith, installReact } from "./support.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function folder(files: Record<string, string>) {
  const made = await folderWith(files);
  cleanup = made.dispose;
  return made;
}

type EsmBlob = Extract<FrameBlob, { kind: "esm" }>;
const esm = (blobs: FrameBlob[], suffix: string) =>
  blobs.find((blob): blob is EsmBlob => blob.kind === "esm" && blob.path.endsWith(suffix));

describe("resolution, against node", () => {
  it("finds the same files node's require does for react's and react-dom's entry points", async () => {
    const { root, files } = await folder({ "package.json": "{}", "src/main.js": "" });
    await installReact(root);
    const require = createRequire(join(root, "src/main.js"));
    for (const specifier of ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom", "react-dom/client", "scheduler"]) {
      expect(await resolveImport(files, join(root, "src/main.js"), specifier, root, "require")).toBe(require.resolve(specifier));
    }
  });

  it("says which package to install, and which file is missing, when an import leads nowhere", async () => {
    const { root, files } = await folder({ "src/main.js": "" });
    await expect(resolveImport(files, join(root, "src/main.js"), "left-pad", root)).rejects.toThrow(
      /cannot find the package "left-pad" .*npm install left-pad/,
    );
    await expect(resolveImport(files, join(root, "src/main.js"), "./nope", root)).rejects.toThrow(/cannot find "\.\/nope"/);
  });

  it("tries extensions, index files and a TypeScript file behind a .js import, as Vite does", async () => {
    const { root, files } = await folder({ "src/a.tsx": "", "src/lib/index.ts": "", "src/b.ts": "", "public/logo.svg": "" });
    const from = join(root, "src/main.ts");
    expect(await resolveImport(files, from, "./a", root)).toBe(join(root, "src/a.tsx"));
    expect(await resolveImport(files, from, "./lib", root)).toBe(join(root, "src/lib/index.ts"));
    expect(await resolveImport(files, from, "./b.js", root)).toBe(join(root, "src/b.ts"));
    expect(await resolveImport(files, from, "/logo.svg", root)).toBe(join(root, "public/logo.svg"));
  });
});

describe("the build of a page", () => {
  it("gives a CommonJS package the named exports node gives it", async () => {
    const { root, files } = await folder({
      "package.json": "{}",
      "index.html": '<script type="module" src="/main.js"></script>',
      "main.js": 'import React from "react";\n',
    });
    await installReact(root);
    const build = await new PreviewBuilder(files, root).build(join(root, "index.html"));
    const facade = esm(build.payload.blobs, "node_modules/react/index.js");
    expect(facade).toBeDefined();
    const ours = [...facade!.code.matchAll(/^export const (\w+) =/gm)].map((match) => match[1]).sort();
    // node's own ESM loader, which reads a CommonJS module's names with cjs-module-lexer and follows its re-exports
    const namespace = (await import(pathToFileURL(join(root, "node_modules/react/index.js")).href)) as Record<string, unknown>;
    const nodeNames = Object.keys(namespace)
      .filter((name) => name !== "default" && name !== "module.exports")
      .sort();
    expect(ours).toEqual(nodeNames);
    expect(ours).toContain("useState");
  });

  it("keeps each line of a TSX file on its line, so a stack's line is the source's", async () => {
    const source = [
      'import { useState } from "react";',
      "interface Props {",
      "  start: number;",
      "}",
      "export function Counter({ start }: Props) {",
      "  const [n] = useState<number>(start);",
      '  console.log("MARK-7", n);',
      "  return <b>{n}</b>;",
      "}",
      'throw new Error("MARK-10");',
    ].join("\n");
    const { root, files } = await folder({
      "package.json": "{}",
      "index.html": '<script type="module" src="src/Counter.tsx"></script>',
      "src/Counter.tsx": source,
    });
    await installReact(root);
    const build = await new PreviewBuilder(files, root).build(join(root, "index.html"));
    const lines = esm(build.payload.blobs, "src/Counter.tsx")!.code.split("\n");
    expect(lines.findIndex((line) => line.includes("MARK-7")) + 1).toBe(7);
    expect(lines.findIndex((line) => line.includes("MARK-10")) + 1).toBe(10);
    // imports point at module keys, which the frame's import map leads to blobs
    expect(lines[0]).toContain(`"@wb${join(root, "node_modules/react/index.js")}"`);
  });

  it("keeps an inline module's lines at their line in the page", async () => {
    const html = [
      "<!doctype html>",
      "<title>x</title>",
      '<script type="module">',
      "const a = 1;",
      'console.log("MARK-5");',
      "</script>",
    ].join("\n");
    const { root, files } = await folder({ "index.html": html });
    const build = await new PreviewBuilder(files, root).build(join(root, "index.html"));
    const lines = esm(build.payload.blobs, "index.html?inline-0")!.code.split("\n");
    expect(lines.findIndex((line) => line.includes("MARK-5")) + 1).toBe(5);
  });

  it("rewrites the page's scripts, style sheets and images, and leaves URLs it cannot serve alone", async () => {
    const { root, files } = await folder({
      "index.html": [
        '<link rel="stylesheet" href="style.css">',
        '<img src="img/dot.png"><img src="https://example.com/x.png">',
        '<script src="legacy.js"></script>',
        '<script type="module">import "./a.js";</script>',
        '<script type="module" src="./a.js"></script>',
      ].join("\n"),
      "style.css": "body { background: url(img/dot.png) }",
      "img/dot.png": "PNG",
      "legacy.js": "window.legacy = 1;",
      "a.js": 'import data from "./data.json";\nimport css from "./b.css";\nexport default data;',
      "data.json": '{"a":1}',
      "b.css": "p{}",
    });
    const build = await new PreviewBuilder(files, root).build(join(root, "index.html"));
    const { html, nonce, blobs } = build.payload;
    const placeholder = new RegExp(`__wbref_${nonce}_\\d+__`, "g");
    expect(html.match(placeholder)).toHaveLength(3); // style sheet, image, classic script
    expect(html).toContain('src="https://example.com/x.png"');
    expect(html).toContain(`<script type="module">import "@wb${join(root, "a.js")}";</script>`);
    const sheet = blobs.find((blob) => blob.kind === "text-asset");
    expect(sheet?.kind === "text-asset" && sheet.text).toMatch(placeholder);
    expect(esm(blobs, "data.json")?.code).toBe('export default {"a":1};');
    expect(esm(blobs, "b.css")?.code).toContain("document.head.appendChild(style)");
    expect([...build.loaded].sort()).toEqual(
      ["a.js", "b.css", "data.json", "img/dot.png", "index.html", "legacy.js", "style.css"].map((f) => join(root, f)),
    );
  });

  it("fails with the file and the fix when a static import cannot be found, but lets a dynamic one fail at run time", async () => {
    const { root, files } = await folder({
      "index.html": '<script type="module" src="main.js"></script>',
      "main.js": 'import "./missing.js";',
      "lazy.html": '<script type="module" src="lazy.js"></script>',
      "lazy.js": 'import("./later.js").catch(() => {});',
    });
    const builder = new PreviewBuilder(files, root);
    await expect(builder.build(join(root, "index.html"))).rejects.toThrow(PreviewBuildError);
    await expect(builder.build(join(root, "index.html"))).rejects.toThrow(/cannot find "\.\/missing\.js" imported by .*main\.js/);
    const lazy = await builder.build(join(root, "lazy.html"));
    expect(lazy.warnings.join("\n")).toMatch(/later\.js/);
  });

  it("does not keep what a read that a change overtook returned", async () => {
    const { root, files } = await folder({ "index.html": '<script type="module" src="a.js"></script>', "a.js": "export const v = 1;" });
    const { writeFile } = await import("node:fs/promises");
    let builder!: PreviewBuilder;
    // The change lands while the first build is reading a.js: its old text must not be cached.
    const racing = {
      ...files,
      readBytes: async (path: string) => {
        const bytes = await files.readBytes(path);
        if (path.endsWith("a.js") && bytes && new TextDecoder().decode(bytes).includes("1")) {
          await writeFile(join(root, "a.js"), "export const v = 2;");
          builder.invalidate([join(root, "a.js")]);
        }
        return bytes;
      },
    };
    builder = new PreviewBuilder(racing, root);
    await builder.build(join(root, "index.html"));
    const again = await builder.build(join(root, "index.html"));
    expect(esm(again.payload.blobs, "a.js")?.code).toBe("export const v = 2;");
  });

  it("reads again only the files a change names", async () => {
    const { root, files, reads } = await folder({
      "index.html": '<script type="module" src="a.js"></script>',
      "a.js": 'import "./b.js";',
      "b.js": "export const b = 1;",
    });
    const builder = new PreviewBuilder(files, root);
    await builder.build(join(root, "index.html"));
    reads.length = 0;
    await builder.build(join(root, "index.html"));
    expect(reads).toEqual([]);
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(root, "b.js"), "export const b = 2;");
    builder.invalidate([join(root, "b.js")]);
    const again = await builder.build(join(root, "index.html"));
    expect(reads).toEqual([join(root, "b.js")]);
    expect(esm(again.payload.blobs, "b.js")?.code).toBe("export const b = 2;");
  });
});
