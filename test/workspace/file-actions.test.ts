/** The file tree's actions: names are checked first, nothing is replaced unasked, nothing lands outside. */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import {
  checkName,
  createFile,
  createFolder,
  deleteEntry,
  dropFiles,
  moveEntry,
  NameTaken,
  renameEntry,
} from "../../src/workspace/file-actions.js";

let runtime: EmbeddedRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

async function setUp() {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  const root = runtime.root;
  const text = async (path: string) => new TextDecoder().decode(await runtime!.fs.readFile(`${root}/${path}`));
  const exists = (path: string) =>
    runtime!.fs.lstat(`${root}/${path}`).then(
      () => true,
      () => false,
    );
  return { rt: runtime, root, text, exists };
}

describe("file actions: names", () => {
  it.each([
    ["", /a name is needed/],
    ["..", /pick another name/],
    [".", /pick another name/],
    ["a/b", /contains "\/"/],
    ["../up", /contains "\/"/],
    ["a\\b", /contains/],
    [" lead", /space/],
    ["trail ", /space/],
    ["x".repeat(256), /at most 255/],
  ])("refuses %j", (name, message) => {
    expect(() => checkName(name)).toThrow(message);
  });

  it("accepts ordinary names, dots inside included", () => {
    for (const name of ["a.txt", ".env", "my file.md", "..hidden", "ü.ts"]) expect(checkName(name)).toBe(name);
  });
});

describe("file actions: new entries with a path (+ File, + Folder)", () => {
  it("docs/notes/today.md makes the folders on the way and the file, as mkdir -p and touch would", async () => {
    const { rt, root, text, exists } = await setUp();
    const made = await createFile(rt, root, "docs/notes/today.md");
    expect(made).toBe(`${root}/docs/notes/today.md`);
    expect(await text("docs/notes/today.md")).toBe("");
    expect((await rt.fs.lstat(`${root}/docs/notes`)).type).toBe("directory");
    // A second file beside it reuses the folders; a nested folder too.
    await createFile(rt, root, "docs/notes/tomorrow.md");
    expect(await createFolder(rt, `${root}/docs`, "a/b")).toBe(`${root}/docs/a/b`);
    expect(await exists("docs/a/b")).toBe(true);
    await expect(createFile(rt, root, "docs/notes/today.md")).rejects.toBeInstanceOf(NameTaken);
  });

  it.each([
    ["../out.txt", /goes up a folder/],
    ["a/../../out.txt", /goes up a folder/],
    ["/abs.txt", /empty part/],
    ["a//b.txt", /empty part/],
    ["dir/", /empty part/],
  ])("refuses %j and writes nothing", async (name, message) => {
    const { rt, root } = await setUp();
    await expect(createFile(rt, root, name)).rejects.toThrow(message);
    expect(await rt.fs.readdir(root)).toEqual([]);
  });

  it("a file in the way of a folder is named, and nothing is made", async () => {
    const { rt, root, exists } = await setUp();
    await createFile(rt, root, "notes");
    await expect(createFile(rt, root, "notes/a.txt")).rejects.toThrow("notes in /");
    expect(await exists("notes/a.txt")).toBe(false);
  });
});

describe("file actions: through the runtime's file operations", () => {
  it("new file and new folder appear where asked, and a taken name is refused, not replaced", async () => {
    const { rt, root, text, exists } = await setUp();
    await createFolder(rt, root, "src");
    const made = await createFile(rt, `${root}/src`, "a.ts");
    expect(made).toBe(`${root}/src/a.ts`);
    expect(await text("src/a.ts")).toBe("");
    await rt.fs.writeFile(`${root}/src/a.ts`, "keep me");
    await expect(createFile(rt, `${root}/src`, "a.ts")).rejects.toBeInstanceOf(NameTaken);
    await expect(createFolder(rt, root, "src")).rejects.toThrow('a folder named "src"');
    expect(await text("src/a.ts")).toBe("keep me");
    await expect(createFile(rt, root, "../escape.txt")).rejects.toThrow("goes up a folder");
    await expect(createFile(rt, "/etc", "x")).rejects.toThrow("not inside the workspace");
    expect(await exists("../escape.txt")).toBe(false);
  });

  it("rename asks before replacing a file, never replaces a folder, and refuses a name with a slash", async () => {
    const { rt, root, text, exists } = await setUp();
    await rt.fs.writeFile(`${root}/a.txt`, "A");
    await rt.fs.writeFile(`${root}/b.txt`, "B");
    await rt.fs.mkdir(`${root}/dir`);
    const taken = await renameEntry(rt, `${root}/a.txt`, "b.txt").catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(NameTaken);
    expect((taken as NameTaken).path).toBe(`${root}/b.txt`);
    expect(await text("b.txt")).toBe("B");
    await expect(renameEntry(rt, `${root}/a.txt`, "dir")).rejects.toThrow("a folder is never replaced");
    await expect(renameEntry(rt, `${root}/a.txt`, "dir/x.txt")).rejects.toThrow('contains "/"');
    await expect(renameEntry(rt, `${root}/a.txt`, "..")).rejects.toThrow("pick another name");
    expect(await renameEntry(rt, `${root}/a.txt`, "b.txt", { overwrite: true })).toBe(`${root}/b.txt`);
    expect(await text("b.txt")).toBe("A");
    expect(await exists("a.txt")).toBe(false);
    await expect(renameEntry(rt, `${root}/gone.txt`, "c.txt")).rejects.toThrow("not there any more");
  });

  it("move keeps the name, refuses a folder into itself, and a folder's files move with it", async () => {
    const { rt, root, text, exists } = await setUp();
    await rt.fs.mkdir(`${root}/lib/deep`, { recursive: true });
    await rt.fs.writeFile(`${root}/lib/deep/x.ts`, "x");
    await rt.fs.mkdir(`${root}/dest`);
    await expect(moveEntry(rt, `${root}/lib`, `${root}/lib/deep`)).rejects.toThrow("into itself");
    await expect(moveEntry(rt, `${root}/lib`, `${root}/lib/deep/x.ts`)).rejects.toThrow("not a folder");
    expect(await moveEntry(rt, `${root}/lib`, `${root}/dest`)).toBe(`${root}/dest/lib`);
    expect(await text("dest/lib/deep/x.ts")).toBe("x");
    expect(await exists("lib")).toBe(false);
    await expect(moveEntry(rt, root, `${root}/dest`)).rejects.toThrow("not inside the workspace");
  });

  it("delete removes a folder with its contents, and never the workspace itself", async () => {
    const { rt, root, exists } = await setUp();
    await rt.fs.mkdir(`${root}/d/e`, { recursive: true });
    await rt.fs.writeFile(`${root}/d/e/f.txt`, "f");
    await deleteEntry(rt, `${root}/d`);
    expect(await exists("d")).toBe(false);
    await expect(deleteEntry(rt, root)).rejects.toThrow("not inside the workspace");
    await expect(deleteEntry(rt, `${root}/../outside`)).rejects.toThrow("not inside the workspace");
  });

  it("dropped files land in the folder; taken names are reported and kept until overwrite is asked", async () => {
    const { rt, root, text } = await setUp();
    await rt.fs.mkdir(`${root}/in`);
    await rt.fs.writeFile(`${root}/in/old.txt`, "old");
    const bytes = (s: string) => new TextEncoder().encode(s);
    const first = await dropFiles(rt, `${root}/in`, [
      { path: "old.txt", data: bytes("new") },
      { path: "fresh.txt", data: bytes("fresh") },
    ]);
    expect(first).toEqual({ written: [], taken: [`${root}/in/old.txt`] });
    expect(await text("in/old.txt")).toBe("old");
    const second = await dropFiles(
      rt,
      `${root}/in`,
      [
        { path: "old.txt", data: bytes("new") },
        { path: "fresh.txt", data: bytes("fresh") },
      ],
      { overwrite: true },
    );
    expect(second.written).toEqual([`${root}/in/old.txt`, `${root}/in/fresh.txt`]);
    expect(await text("in/old.txt")).toBe("new");
    await expect(dropFiles(rt, `${root}/in`, [{ path: "../up.txt", data: bytes("x") }])).rejects.toThrow("outside");
  });
});
