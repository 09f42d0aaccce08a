/** The embedded shell's promise about a missing command: exit 127, bash's words, and an accurate list of what it has. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withCommandHint } from "../../src/runtime/embedded/command-hint.js";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";

function listedCommands(stderr: string): string[] {
  const hint = stderr.split("\n").find((line) => line.startsWith("hint: "));
  const list = /: ([a-z0-9 -]+); `help`/.exec(hint ?? "")?.[1];
  return list ? list.split(" ") : [];
}

describe("embedded shell: a command it does not have", () => {
  let runtime: EmbeddedRuntime;

  beforeAll(async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  });
  afterAll(async () => runtime.dispose());

  it("exits 127 with bash's message, then a hint naming what the shell has", async () => {
    const result = await runtime.exec("nosuchcmd --flag");
    expect(result.exitCode).toBe(127);
    const [first, second] = result.stderr.split("\n");
    expect(first).toBe("bash: nosuchcmd: command not found");
    expect(second).toMatch(/^hint: the embedded shell runs only its own commands \(node, npm among them; no python or other/);
    const listed = listedCommands(result.stderr);
    for (const name of ["ls", "cat", "grep", "sed", "git", "node", "npm", "npx"]) expect(listed).toContain(name);
    for (const name of ["python3", "nosuchcmd"]) expect(listed).not.toContain(name);
  });

  it("lists only commands the shell can find, and the same probe finds no `nosuchcmd`", async () => {
    const listed = listedCommands((await runtime.exec("nosuchcmd")).stderr);
    expect(listed.length).toBeGreaterThan(30);
    const probe = [...listed, "nosuchcmd"].map((name) => `command -v ${name} || echo "MISSING ${name}"`).join("\n");
    const result = await runtime.exec(probe);
    const missing = result.stdout.split("\n").filter((line) => line.startsWith("MISSING "));
    expect(missing).toEqual(["MISSING nosuchcmd"]);
  });

  it("gives the hint once, after the first miss, and keeps the exit code of the line", async () => {
    const result = await runtime.exec("nosuch1; nosuch2; echo after");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("after\n");
    const lines = result.stderr.split("\n");
    expect(lines[0]).toBe("bash: nosuch1: command not found");
    expect(lines[1]).toMatch(/^hint: /);
    expect(lines[2]).toBe("bash: nosuch2: command not found");
    expect(result.stderr.match(/^hint: /gm)).toHaveLength(1);
  });

  it("says 'command not found' for a command just-bash leaves out of its browser build", async () => {
    const result = await runtime.exec("python3 -c 'print(1)'");
    expect(result.exitCode).toBe(127);
    expect(result.stderr.split("\n")[0]).toBe("bash: python3: command not found");
    expect(result.stderr).not.toMatch(/Node\.js bundle/);
  });

  it("adds nothing when no command was missing", async () => {
    const result = await runtime.exec("ls /nowhere");
    expect(result.exitCode).not.toBe(127);
    expect(result.stderr).not.toMatch(/^hint: /m);
  });
});

describe("withCommandHint", () => {
  it("leaves stderr alone when nothing was missing, and names the given commands when something was", () => {
    expect(withCommandHint("grep: x: No such file or directory\n", ["grep"])).toBe("grep: x: No such file or directory\n");
    const text = withCommandHint("before\nbash: foo: command not found\nafter\n", ["zz", "aa"]);
    expect(text.split("\n")[0]).toBe("before");
    expect(text.split("\n")[1]).toBe("bash: foo: command not found");
    expect(text.split("\n")[2]).toMatch(/: aa zz; `help`/);
    expect(text.split("\n")[3]).toBe("after");
  });
});
