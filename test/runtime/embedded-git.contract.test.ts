/**
 * The embedded shell's `git` where real git has nothing to compare with: what it says about what
 * it cannot do, who commits when nobody said, and that it works on the very files the tools see.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("embedded git: contract", () => {
  let runtime: EmbeddedRuntime;
  const p = (rel: string) => `${runtime.root}/${rel}`;

  beforeEach(async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  });
  afterEach(async () => runtime.dispose());

  it("says which subcommands it offers when asked for a real one it lacks", async () => {
    const result = await runtime.exec("git push origin main");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^git: 'push' is not available in the embedded shell's git\. It offers: .*\bstatus\b/);
  });

  it("rejects an unknown option with exit 129 and the options it does take", async () => {
    await runtime.exec("git init -q");
    const result = await runtime.exec("git status --frobnicate");
    expect(result.exitCode).toBe(129);
    expect(result.stderr).toMatch(/^fatal: unknown option 'frobnicate' for git status \(supported here: -s/);
  });

  it("asks for -m instead of opening an editor it does not have", async () => {
    await runtime.exec("git init -q && echo a > a.txt && git add a.txt");
    const result = await runtime.exec("git commit");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/no editor.*-m "message"/);
    expect((await runtime.exec("git status -s")).stdout).toBe("A  a.txt\n");
  });

  it("says how to commit named paths instead of committing something else", async () => {
    await runtime.exec("git init -q && echo a > a.txt && echo b > b.txt && git add b.txt");
    const result = await runtime.exec("git commit -m 'only a' a.txt");
    expect(result.exitCode).toBe(128);
    expect(result.stderr).toMatch(/^fatal: committing only named paths .*git add <paths>/);
    expect((await runtime.exec("git status -s")).stdout).toBe("A  b.txt\n?? a.txt\n");
  });

  it("commits as the shell's user when no identity is set, and as `git config user.*` once set", async () => {
    await runtime.exec("git init -q && echo a > a.txt && git add a.txt && git commit -qm one");
    expect((await runtime.exec("git log -1 --format='%an <%ae>'")).stdout).toBe("user <user@workbench.local>\n");
    await runtime.exec("git config user.name 'Grace Hopper' && git config --global user.email grace@example.com");
    await runtime.exec("echo b > b.txt && git add b.txt && git commit -qm two");
    expect((await runtime.exec("git log -1 --format='%an <%ae>'")).stdout).toBe("Grace Hopper <grace@example.com>\n");
    expect(text(await runtime.fs.readFile(p(".git/config")))).toMatch(/email = grace@example\.com/);
  });

  it("explains where settings live when `git config` runs outside a repository", async () => {
    const result = await runtime.exec("git config --global user.name X");
    expect(result.exitCode).toBe(128);
    expect(result.stderr).toMatch(/^fatal: not in a git directory .*git init/);
  });

  it("works on the workspace's own files: writes through the runtime show in status, checkout shows in the runtime", async () => {
    await runtime.exec("git init -q && printf 'v1\\n' > f.txt && git add . && git commit -qm one");
    await runtime.fs.writeFile(p("f.txt"), "v2 from a tool\n");
    expect((await runtime.exec("git status -s")).stdout).toBe(" M f.txt\n");
    expect((await runtime.exec("git diff")).stdout).toContain("-v1\n+v2 from a tool\n");
    await runtime.exec("git checkout -- f.txt");
    expect(text(await runtime.fs.readFile(p("f.txt")))).toBe("v1\n");
  });

  it("sees a same-size rewrite made right after staging", async () => {
    const result = await runtime.exec("git init -q && echo a > f && git add f && echo b > f && git status -s");
    expect(result.stdout).toBe("AM f\n");
  });

  it("finds the repository from a subfolder, and -C runs elsewhere", async () => {
    await runtime.exec("git init -q && mkdir -p deep/er && echo x > deep/er/x.txt");
    expect((await runtime.exec("cd deep/er && git status -s")).stdout).toBe("?? ../\n");
    expect((await runtime.exec("git -C deep/er rev-parse --show-prefix")).stdout).toBe("deep/er/\n");
    const outside = await runtime.exec("git -C /tmp status");
    expect(outside.exitCode).toBe(128);
    expect(outside.stderr).toBe("fatal: not a git repository (or any of the parent directories): .git\n");
  });
});
