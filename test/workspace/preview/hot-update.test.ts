/**
 * Hot updates: after an edit, what the frame runs again (and what it keeps), checked against a fresh
 * build of the edited files by a builder that never saw them before (FrameModel plays the frame); and
 * the edits a hot update cannot show, which reload the page.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PreviewBuild, PreviewBuilder } from "../../../src/workspace/preview/build.js";
import { frameFiles, type HotUpdate, planHotUpdate } from "../../../src/workspace/preview/hot-update.js";
import { FrameModel } from "./frame-model.js";
import { folderWith, installReact } from "./support.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const APP = {
  "package.json": "{}",
  "index.html": '<link rel="stylesheet" href="page.css"><div id="root"></div><script type="module" src="/src/main.tsx"></script>',
  "page.css": "body { margin: 0 }",
  "data.json": "[1]",
  "src/main.tsx": 'import { App } from "./App";\nimport "./main.css";\nconsole.log(<App />);\n',
  "src/main.css": "h1 { color: red }",
  "src/App.tsx":
    'import { Title } from "./Title";\nimport { List } from "./List";\nexport function App() {\n  return <main><Title /><List /></main>;\n}\n',
  "src/Title.tsx": 'import { text } from "./text";\nexport function Title() {\n  return <h1>{text}</h1>;\n}\n',
  "src/List.tsx": "export function List() {\n  return <ul><li>one</li></ul>;\n}\n",
  "src/text.ts": 'export const text: string = "first";\n',
};

/** A folder with the app, a builder that keeps its caches (as the page's does) and the page's first build. */
async function loaded(files: Record<string, string> = APP) {
  const made = await folderWith(files);
  cleanup = made.dispose;
  // TSX's automatic runtime imports react/jsx-dev-runtime.
  if (files === APP) await installReact(made.root);
  const builder = new PreviewBuilder(made.files, made.root);
  const html = join(made.root, "index.html");
  const first = await builder.build(html);
  const path = (name: string) => join(made.root, name);
  /** Writes files, tells the builder, builds again, plans against what the frame runs. */
  const edit = async (frame: PreviewBuild, changes: Record<string, string | null>) => {
    for (const [name, text] of Object.entries(changes)) {
      if (text === null) await rm(path(name));
      else await writeFile(path(name), text);
    }
    const changed = Object.keys(changes).map(path);
    builder.invalidate(changed);
    const next = await builder.build(html);
    return { next, plan: planHotUpdate(frame, frameFiles(first), next, changed) };
  };
  const fresh = () => new PreviewBuilder(made.files, made.root).build(html);
  return { ...made, builder, first, path, edit, fresh };
}

const hot = (plan: ReturnType<typeof planHotUpdate>): HotUpdate => {
  if ("reload" in plan) throw new Error(`expected a hot update, got a reload: ${plan.reload}`);
  return plan.hot;
};
const shortPaths = (update: HotUpdate, root: string) => update.modules.map((module) => module.path.slice(root.length + 1));

describe("a hot update", () => {
  it("runs again the edited module, the modules that import it and the entry, in that order, and nothing else", async () => {
    const app = await loaded();
    const { next, plan } = await app.edit(app.first, { "src/text.ts": 'export const text: string = "second";\n' });
    const update = hot(plan);
    expect(shortPaths(update, app.root)).toEqual(["src/text.ts", "src/Title.tsx", "src/App.tsx", "src/main.tsx"]);
    expect(update.entries).toEqual([`@wb${app.path("src/main.tsx")}`]);
    const frame = new FrameModel(app.first);
    frame.apply(update, app.first);
    frame.expectRuns(await app.fresh());
    expect(next.payload.blobs.find((blob) => blob.path.endsWith("text.ts"))).toMatchObject({ code: expect.stringContaining("second") });
  });

  it("keeps up over several edits: a module made by an earlier update is the one later ones import", async () => {
    const app = await loaded();
    const frame = new FrameModel(app.first);
    let current = app.first;
    for (const [name, text] of [
      ["src/text.ts", 'export const text: string = "second";\n'],
      ["src/List.tsx", "export function List() {\n  return <ul><li>two</li></ul>;\n}\n"],
      ["src/text.ts", 'export const text: string = "third";\n'],
    ] as const) {
      const { next, plan } = await app.edit(current, { [name]: text });
      frame.apply(hot(plan), app.first);
      frame.expectRuns(await app.fresh());
      current = next;
    }
  });

  it("takes in a module the edit imports for the first time, and a style sheet the app imports", async () => {
    const app = await loaded();
    await writeFile(app.path("src/Badge.tsx"), "export const Badge = () => <b>new</b>;\n");
    const { plan } = await app.edit(app.first, {
      "src/List.tsx": 'import { Badge } from "./Badge";\nexport function List() {\n  return <ul><li><Badge /></li></ul>;\n}\n',
      "src/main.css": "h1 { color: blue }",
    });
    const update = hot(plan);
    expect(shortPaths(update, app.root)).toEqual(expect.arrayContaining(["src/Badge.tsx", "src/List.tsx", "src/main.css"]));
    expect(shortPaths(update, app.root)).not.toContain("src/Title.tsx");
    const frame = new FrameModel(app.first);
    frame.apply(update, app.first);
    frame.expectRuns(await app.fresh());
  });

  it("follows a new file that changes where an import leads (a .ts made beside the .js it was)", async () => {
    const app = await loaded({
      "index.html": '<script type="module" src="main.js"></script>',
      "main.js": 'import { v } from "./util";\nconsole.log(v);\n',
      "util.js": "export const v = 1;\n",
    });
    // Vite tries .ts before .js: the new file is what "./util" names from now on.
    const { plan } = await app.edit(app.first, { "util.ts": "export const v: number = 2;\n" });
    const update = hot(plan);
    expect(shortPaths(update, app.root)).toEqual(["util.ts", "main.js"]);
    const frame = new FrameModel(app.first);
    frame.apply(update, app.first);
    frame.expectRuns(await app.fresh());
  });

  it("sends nothing when no module's code changed", async () => {
    const app = await loaded();
    const { plan } = await app.edit(app.first, { "src/text.ts": APP["src/text.ts"] });
    expect(hot(plan).modules).toEqual([]);
  });

  it("keeps an asset's place: a module that imports one names the file the frame made at load", async () => {
    const app = await loaded({
      "index.html": '<script type="module" src="main.js"></script>',
      "main.js": 'import logo from "./logo.svg";\nexport const a = 1;\nconsole.log(logo);\n',
      "logo.svg": "<svg/>",
    });
    const { plan } = await app.edit(app.first, { "main.js": 'import logo from "./logo.svg";\nexport const a = 2;\nconsole.log(logo);\n' });
    const update = hot(plan);
    const frame = new FrameModel(app.first);
    frame.apply(update, app.first);
    frame.expectRuns(await app.fresh());
  });
});

describe("a full reload instead", () => {
  it.each([
    ["the page's HTML", { "index.html": '<div id="root"></div><script type="module" src="/src/main.tsx"></script>' }, /HTML/],
    ["a style sheet the page links", { "page.css": "body { margin: 1px }" }, /page\.css is not a module/],
  ])("when the edit is to %s", async (_, changes, why) => {
    const app = await loaded();
    const { plan } = await app.edit(app.first, changes);
    expect(plan).toEqual({ reload: expect.stringMatching(why) });
  });

  it("when the edit is to a file the page fetched", async () => {
    const app = await loaded();
    app.first.loaded.add(app.path("data.json")); // as the page's fetch() adds it
    const { plan } = await app.edit(app.first, { "data.json": "[2]" });
    expect(plan).toEqual({ reload: expect.stringMatching(/data\.json was read by the page/) });
  });

  it("when the edit brings in a package the page has not loaded", async () => {
    const app = await loaded();
    await mkdir(app.path("node_modules/left-pad"), { recursive: true });
    await writeFile(app.path("node_modules/left-pad/package.json"), '{ "name": "left-pad", "main": "index.js" }');
    await writeFile(app.path("node_modules/left-pad/index.js"), "module.exports = (s) => s;\n");
    const { plan } = await app.edit(app.first, {
      "src/List.tsx": 'import pad from "left-pad";\nexport function List() {\n  return <p>{pad("x")}</p>;\n}\n',
    });
    expect(plan).toEqual({
      reload: expect.stringMatching(/node_modules\/left-pad\/index\.js is not a module the page can run again \(cjs\)/),
    });
  });

  it("when the modules to run again import each other in a cycle", async () => {
    const app = await loaded({
      "index.html": '<script type="module" src="main.js"></script>',
      "main.js": 'import { a } from "./a.js";\nconsole.log(a);\n',
      "a.js": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "b.js": 'import { a } from "./a.js";\nexport const b = 1;\nexport const c = () => a;\n',
    });
    const { plan } = await app.edit(app.first, { "b.js": 'import { a } from "./a.js";\nexport const b = 2;\nexport const c = () => a;\n' });
    expect(plan).toEqual({ reload: expect.stringMatching(/import cycle/) });
  });
});

describe("the builder after an edit", () => {
  it("asks nothing again of the files resolution looked at when an existing module is edited", async () => {
    const made = await folderWith(APP);
    cleanup = made.dispose;
    await installReact(made.root);
    let asked = 0;
    const counting = {
      ...made.files,
      isFile: (path: string) => {
        asked++;
        return made.files.isFile(path);
      },
    };
    const builder = new PreviewBuilder(counting, made.root);
    await builder.build(join(made.root, "index.html"));
    const first = asked;
    await writeFile(join(made.root, "src/text.ts"), 'export const text = "x";\n');
    builder.invalidate([join(made.root, "src/text.ts"), join(made.root, "src/never-looked-at.ts")]);
    asked = 0;
    await builder.build(join(made.root, "index.html"));
    // The page's folder (package.json) and the edited file's existence, checked once; no import resolved again.
    expect(first).toBeGreaterThan(10);
    expect(asked).toBeLessThanOrEqual(2);
  });

  it("resolves again when a folder resolution looked in is removed, though the change names only the folder", async () => {
    const app = await loaded({
      "index.html": '<script type="module" src="main.js"></script>',
      "main.js": 'import { v } from "./lib";\nconsole.log(v);\n',
      "lib/index.js": "export const v = 1;\n",
    });
    await rm(app.path("lib"), { recursive: true });
    app.builder.invalidate([app.path("lib")]);
    await expect(app.builder.build(app.path("index.html"))).rejects.toThrow(/cannot find "\.\/lib" imported by .*main\.js/);
  });
});
