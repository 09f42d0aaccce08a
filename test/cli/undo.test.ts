/**
 * `workbench undo` end to end: `workbench run` (the real bin, a local provider server scripting the model)
 * changes a folder that is a git repository with a read, an edit and a shell command; undo puts the files
 * back byte for byte (compared by a walk of the folder, independently of the checkpoint code), leaves
 * `.git` alone, keeps its checkpoints in the data folder only, asks before taking back a hand edit, and redo
 * gives the run's result back.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startProviderServer, type ProviderServer } from "../support/provider-server.js";
import { folderTree } from "../support/tree-bytes.js";
import { runWorkbench } from "../support/workbench-bin.js";

const KEY = "sk-test-undo-0123456789";
let server: ProviderServer;
let dataDir: string;
let globalDir: string;

function workbench(args: string[]) {
  return runWorkbench(args, { env: { WORKBENCH_DATA_DIR: dataDir, WORKBENCH_GLOBAL_CONFIG: globalDir, TEST_PROVIDER_KEY: KEY } });
}

const config = () => ({
  provider: {
    local: {
      npm: "@ai-sdk/openai-compatible",
      name: "Local test server",
      options: { baseURL: server.openaiBaseURL, apiKey: "{env:TEST_PROVIDER_KEY}" },
      models: { "coder-1": { name: "Coder 1", limit: { context: 100000, output: 4000 } } },
    },
  },
  model: "local/coder-1",
});

let dir: string;
let sessionFile: string;

/** A git repository with a typo in a.txt, a binary file and a file the run deletes. */
async function repository(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "wb-undo-"));
  await writeFile(join(folder, "opencode.json"), JSON.stringify(config(), null, 2));
  await writeFile(join(folder, "a.txt"), "Hello, this is teh file.\n");
  await writeFile(join(folder, "bin.dat"), new Uint8Array([0, 255, 254, 10, 13]));
  await writeFile(join(folder, "gone.txt"), "to be removed\n");
  execFileSync("git", ["init", "-q"], { cwd: folder });
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "add", "."], { cwd: folder });
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "start"], { cwd: folder });
  return folder;
}

function scriptRun(folder: string) {
  const path = join(folder, "a.txt");
  server.enqueue(
    { step: { toolCalls: [{ name: "read", input: { filePath: path } }] } },
    { step: { toolCalls: [{ name: "edit", input: { filePath: path, oldString: "teh file", newString: "the file" } }] } },
    {
      step: {
        toolCalls: [
          {
            name: "bash",
            input: { command: "rm gone.txt && mkdir -p new/deep && printf 'x\\377' > new/deep/made.bin", description: "tidy" },
          },
        ],
      },
    },
    { step: { text: "Done." } },
  );
}

async function callIds(): Promise<Array<{ id: string; tool: string }>> {
  const file = JSON.parse(await readFile(sessionFile, "utf8")) as { session: { calls: Array<{ id: string; tool: string }> } };
  return file.session.calls.map(({ id, tool }) => ({ id, tool }));
}

beforeAll(async () => {
  server = await startProviderServer();
  dataDir = await mkdtemp(join(tmpdir(), "wb-undo-data-"));
  globalDir = await mkdtemp(join(tmpdir(), "wb-undo-global-"));
});
afterAll(() => server.close());

describe("workbench undo", () => {
  let before: string[];
  let gitBefore: string[];
  let after: string[];

  beforeEach(async () => {
    dir = await repository();
    sessionFile = join(await mkdtemp(join(tmpdir(), "wb-undo-session-")), "session.json");
    before = await folderTree(dir, { skip: (path) => path === ".git" });
    gitBefore = await folderTree(join(dir, ".git"));
    scriptRun(dir);
    const run = await workbench(["run", "--trust", "--yes", "--dir", dir, "--session-file", sessionFile, "fix the typo and tidy"]);
    expect(run.stderr).not.toContain("warning: a checkpoint");
    expect(run.code).toBe(0);
    after = await folderTree(dir, { skip: (path) => path === ".git" });
    // The run did change the files (else undo would prove nothing).
    expect(after).not.toEqual(before);
    expect(after.some((line) => line.startsWith("new/deep/made.bin file"))).toBe(true);
  });

  it("puts the files back as before the message, byte for byte, and redo gives the run's result back", async () => {
    const undo = await workbench(["undo", "--dir", dir, "--session-file", sessionFile]);
    expect(undo.stderr).toBe("");
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain("- new/deep/made.bin");
    expect(await folderTree(dir, { skip: (path) => path === ".git" })).toEqual(before);
    // The repository's own history is untouched, and nothing of the checkpoints is in the folder.
    expect(await folderTree(join(dir, ".git"))).toEqual(gitBefore);
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: dir, encoding: "utf8" })).toBe("");
    expect((await readdir(join(dataDir, "checkpoints"))).length).toBeGreaterThan(0);

    const redo = await workbench(["undo", "--dir", dir, "--redo"]);
    expect(redo.code).toBe(0);
    expect(await folderTree(dir, { skip: (path) => path === ".git" })).toEqual(after);
  });

  it("--to a call goes back to just before it: the edit stays, the shell command is taken back", async () => {
    const unknown = await workbench(["undo", "--dir", dir, "--to", "call_nope", "--session-file", sessionFile]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("call call_nope is not in the session file");
    expect(await folderTree(dir, { skip: (path) => path === ".git" })).toEqual(after);
    const bash = (await callIds()).find((call) => call.tool === "bash")!;
    const undo = await workbench(["undo", "--dir", dir, "--to", bash.id]);
    expect(undo.code).toBe(0);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("Hello, this is the file.\n");
    expect(await readFile(join(dir, "gone.txt"), "utf8")).toBe("to be removed\n");
    await expect(readdir(join(dir, "new"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("lists a hand edit made since and keeps it unless --yes", async () => {
    await writeFile(join(dir, "a.txt"), "my own words\n");
    const asked = await workbench(["undo", "--dir", dir]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain("changed by hand");
    expect(asked.stderr).toContain("a.txt");
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("my own words\n");
    expect(await folderTree(dir, { skip: (path) => path === ".git" || path === "a.txt" })).toEqual(
      after.filter((line) => !line.startsWith("a.txt ")),
    );
    const confirmed = await workbench(["undo", "--dir", dir, "--yes"]);
    expect(confirmed.code).toBe(0);
    expect(await folderTree(dir, { skip: (path) => path === ".git" })).toEqual(before);
  });
});
