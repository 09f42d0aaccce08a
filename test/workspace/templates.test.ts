/**
 * The first screen's templates: each is a project that works as its README says (checked with the real
 * node and python3 of this machine), and writing one lands in its own folder, never over what is there.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { TEMPLATES } from "../../src/workspace/templates/catalog.js";
import { addTemplate, type Template } from "../../src/workspace/templates/template.js";

const byId = (id: string): Template => {
  const template = TEMPLATES.find((t) => t.id === id);
  if (!template) throw new Error(`no template ${id}`);
  return template;
};

const folders: string[] = [];
function onDisk(template: Template): string {
  const folder = mkdtempSync(join(tmpdir(), `template-${template.id}-`));
  folders.push(folder);
  for (const [path, text] of Object.entries(template.files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  await runtime?.dispose();
  runtime = undefined;
});

describe("differential: each template runs as its README says, with the real tools", () => {
  it("every template names a main file it has, and ids are distinct folder names", () => {
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    for (const template of TEMPLATES) {
      expect(template.id).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(Object.keys(template.files)).toContain(template.main);
    }
  });

  it("node-tests: `node --test` passes both tests and `npm test` runs the same", () => {
    const folder = onDisk(byId("node-tests"));
    const out = execFileSync("node", ["--test"], { cwd: folder, encoding: "utf8" });
    expect(out).toMatch(/# pass 2\b/);
    expect(out).toMatch(/# fail 0\b/);
    expect(execFileSync("npm", ["test", "--silent"], { cwd: folder, encoding: "utf8" })).toMatch(/# pass 2\b/);
  });

  it("python-script: the script prints its counts and unittest passes", () => {
    const folder = onDisk(byId("python-script"));
    expect(execFileSync("python3", ["words.py"], { cwd: folder, encoding: "utf8" })).toBe("2 the\n1 cat\n1 and\n1 hat\n");
    const tests = execFileSync("python3", ["test_words.py"], { cwd: folder, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(tests).toBe("");
  });

  it("web-app: the page's script parses, and every file the page links to is in the template", () => {
    const template = byId("web-app");
    const folder = onDisk(template);
    execFileSync("node", ["--check", join(folder, "app.js")]);
    const linked = [...template.files["index.html"]!.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(linked.sort()).toEqual(["app.js", "style.css"]);
    for (const path of linked) expect(Object.keys(template.files)).toContain(path);
  });
});

describe("contract: writing a template", () => {
  it("lands in its own folder with every file, and returns the main file to open", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const template = byId("node-tests");
    const added = await addTemplate(runtime, template);
    expect(added).toEqual({ folder: `${runtime.root}/node-tests`, main: `${runtime.root}/node-tests/sum.js`, created: true });
    const listed = await runtime.exec("cd node-tests && find . -type f");
    expect(listed.stdout.trim().split("\n").sort()).toEqual(
      Object.keys(template.files)
        .map((path) => `./${path}`)
        .sort(),
    );
    expect(new TextDecoder().decode(await runtime.fs.readFile(added.main))).toBe(template.files["sum.js"]);
  });

  it("a folder of that name already there is left as it is: nothing is written", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    await runtime.fs.mkdir(`${runtime.root}/web-app`);
    await runtime.fs.writeFile(`${runtime.root}/web-app/index.html`, "mine");
    const added = await addTemplate(runtime, byId("web-app"));
    expect(added.created).toBe(false);
    expect(new TextDecoder().decode(await runtime.fs.readFile(added.main))).toBe("mine");
    expect((await runtime.fs.readdir(added.folder)).map((entry) => entry.name)).toEqual(["index.html"]);
  });
});
