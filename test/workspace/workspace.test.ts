/** Opening a workspace: the right runtime, and the user told why when it is not the one asked for. */
import { describe, expect, it } from "vitest";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { bootWebContainer } from "../../src/runtime/webcontainer/boot.js";
import { ShellSession } from "../../src/workspace/shell-session.js";
import { Workspace, type WorkspaceOptions, type WorkspacePlatform } from "../../src/workspace/workspace.js";
import { createWebContainerStandin } from "../support/webcontainer-standin.js";

const options = (over: Partial<WorkspaceOptions> = {}): WorkspaceOptions => ({
  name: "t",
  requested: "embedded",
  bootTimeoutMs: 300,
  memoryOnly: true,
  unlimited: false,
  ...over,
});

function platform(over: Partial<WorkspacePlatform> = {}): WorkspacePlatform {
  return {
    openEmbedded: async ({ readOnly }) => ({
      runtime: await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, readOnly }),
      storageNotice: "memory only",
    }),
    bootWebContainer: (from, timeoutMs) =>
      bootWebContainer(createWebContainerStandin({ hang: true }), {
        timeoutMs,
        environment: { isolated: true, hasSharedMemory: true },
        from,
      }),
    acquireLock: async () => ({ held: true, release() {} }),
    ...over,
  };
}

describe("workspace", () => {
  it("opens on the embedded runtime and passes on the storage notice", async () => {
    const ws = await Workspace.open(options(), platform());
    expect(ws.status).toMatchObject({ phase: "ready", kind: "embedded" });
    expect(ws.notices.storage).toBe("memory only");
    await ws.startRequested();
    expect(ws.runtime).toBe(ws.embedded);
    await ws.embedded.dispose();
  });

  it("serves from embedded while WebContainer boots, then falls back with the reason", async () => {
    const ws = await Workspace.open(options({ requested: "webcontainer" }), platform());
    expect(ws.status.phase).toBe("booting");
    const seen: string[] = [];
    ws.onStatus(() => seen.push(ws.status.phase));
    await ws.startRequested();
    expect(seen).toEqual(["fallback"]);
    expect(ws.status).toMatchObject({ phase: "fallback", kind: "embedded" });
    expect(ws.status.detail).toMatch(/did not boot within/);
    expect(ws.runtime.kind).toBe("embedded");
    await ws.embedded.dispose();
  });

  it("switches to WebContainer when it boots, with the workspace's files", async () => {
    const ws = await Workspace.open(
      options({ requested: "webcontainer" }),
      platform({
        bootWebContainer: (from, timeoutMs) =>
          bootWebContainer(createWebContainerStandin(), { timeoutMs, environment: { isolated: true, hasSharedMemory: true }, from }),
      }),
    );
    await ws.embedded.fs.writeFile(`${ws.embedded.root}/carried.txt`, "over");
    await ws.startRequested();
    expect(ws.status).toMatchObject({ phase: "ready", kind: "webcontainer" });
    expect((await ws.runtime.exec("cat carried.txt")).output).toBe("over");
    await ws.embedded.dispose();
  });

  it("opens read-only and says so when another tab holds the workspace", async () => {
    const ws = await Workspace.open(
      options(),
      platform({ acquireLock: async () => ({ held: false, reason: 'The workspace "t" is open in another tab.' }) }),
    );
    expect(ws.readOnly).toBe(true);
    expect(ws.notices.readOnly).toMatch(/open in another tab.*read-only/);
    await expect(ws.runtime.fs.writeFile(`${ws.runtime.root}/x`, "y")).rejects.toMatchObject({ code: "EROFS" });
    await ws.embedded.dispose();
  });
});

describe("shell session", () => {
  it("carries cwd and variables between commands, and forgets them on reset", async () => {
    const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const shell = new ShellSession(() => runtime);
    await shell.run("mkdir -p a/b && cd a/b && export KEPT=1 && LOCAL=2");
    expect(shell.cwd).toBe("/workspace/a/b");
    expect((await shell.run('echo "$KEPT $LOCAL"; pwd')).stdout).toBe("1 2\n/workspace/a/b\n");
    shell.reset();
    expect((await shell.run("pwd")).stdout).toBe("/workspace\n");
    await runtime.dispose();
  });
});
