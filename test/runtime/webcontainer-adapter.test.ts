/** What the WebContainer adapter adds over the contract: booting honestly, and a PTY made plain. */
import { describe, expect, it } from "vitest";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { PtyTextDecoder } from "../../src/runtime/webcontainer/ansi.js";
import type { WcInstance, WcProcess } from "../../src/runtime/webcontainer/api.js";
import { bootWebContainer } from "../../src/runtime/webcontainer/boot.js";
import { createWebContainerRuntime } from "../../src/runtime/webcontainer/runtime.js";
import { createWebContainerStandin } from "../support/webcontainer-standin.js";

const ready = { isolated: true, hasSharedMemory: true };

describe("webcontainer: booting", () => {
  it("does not try on a page that is not cross-origin isolated, and says why", async () => {
    const api = createWebContainerStandin();
    const outcome = await bootWebContainer(api, { timeoutMs: 1_000, environment: { isolated: false, hasSharedMemory: true } });
    expect(outcome).toMatchObject({ ok: false, reason: "not-isolated" });
    expect(outcome.ok ? "" : outcome.message).toMatch(/cross-origin isolated/);
    expect(api.booted).toHaveLength(0);
  });

  it("names an unsupported browser", async () => {
    const outcome = await bootWebContainer(createWebContainerStandin(), {
      timeoutMs: 1_000,
      environment: { isolated: true, hasSharedMemory: false },
    });
    expect(outcome).toMatchObject({ ok: false, reason: "unsupported-browser" });
  });

  it("gives up at the timeout when boot never settles (as offline)", async () => {
    const started = Date.now();
    const outcome = await bootWebContainer(createWebContainerStandin({ hang: true }), { timeoutMs: 300, environment: ready });
    expect(outcome).toMatchObject({ ok: false, reason: "timeout" });
    expect(outcome.ok ? "" : outcome.message).toMatch(/did not boot within/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("reports a boot that throws, and a module that fails to load", async () => {
    const throwing = await bootWebContainer(
      { boot: () => Promise.reject(new Error("Only a single WebContainer instance can be booted")) },
      { timeoutMs: 1_000, environment: ready },
    );
    expect(throwing).toMatchObject({ ok: false, reason: "error" });
    expect(throwing.ok ? "" : throwing.message).toMatch(/single WebContainer/);
    const unloadable = await bootWebContainer(() => Promise.reject(new Error("Failed to fetch dynamically imported module")), {
      timeoutMs: 1_000,
      environment: ready,
    });
    expect(unloadable).toMatchObject({ ok: false, reason: "error" });
  });

  it("mounts the current workspace's files, folders included", async () => {
    const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    await embedded.fs.mkdir(`${embedded.root}/src/deep`, { recursive: true });
    await embedded.fs.writeFile(`${embedded.root}/src/deep/a.ts`, "export const a = 1;\n");
    await embedded.fs.writeFile(`${embedded.root}/bin.dat`, new Uint8Array([0, 255, 7]));
    const outcome = await bootWebContainer(createWebContainerStandin(), { timeoutMs: 1_000, environment: ready, from: embedded });
    await embedded.dispose();
    if (!outcome.ok) throw new Error(outcome.message);
    const wc = outcome.runtime;
    expect(wc.root).toBe("/home/workspace");
    expect(new TextDecoder().decode(await wc.fs.readFile(`${wc.root}/src/deep/a.ts`))).toBe("export const a = 1;\n");
    expect(Array.from(await wc.fs.readFile(`${wc.root}/bin.dat`))).toEqual([0, 255, 7]);
    expect((await wc.exec("cat src/deep/a.ts")).output).toBe("export const a = 1;\n");
  });
});

describe("webcontainer: files the API cannot reach or describe", () => {
  it("refuses paths outside the workdir with a reason", async () => {
    const outcome = await bootWebContainer(createWebContainerStandin(), { timeoutMs: 1_000, environment: ready });
    if (!outcome.ok) throw new Error(outcome.message);
    const error = await outcome.runtime.fs.readFile("/etc/passwd").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "EPERM" });
    expect(String(error)).toMatch(/outside the WebContainer's workdir/);
  });

  it("dates a file a command wrote from the container's watch events", async () => {
    const outcome = await bootWebContainer(createWebContainerStandin(), { timeoutMs: 1_000, environment: ready });
    if (!outcome.ok) throw new Error(outcome.message);
    const wc = outcome.runtime;
    await wc.fs.writeFile(`${wc.root}/old.txt`, "old");
    const oldTime = (await wc.fs.stat(`${wc.root}/old.txt`)).mtimeMs;
    await new Promise((r) => setTimeout(r, 30));
    await wc.exec("echo new > made-by-command.txt");
    const newTime = (await wc.fs.stat(`${wc.root}/made-by-command.txt`)).mtimeMs;
    expect(newTime).toBeGreaterThan(oldTime);
    expect((await wc.fs.stat(`${wc.root}/old.txt`)).mtimeMs).toBe(oldTime);
  });
});

describe("webcontainer: PTY output made plain", () => {
  it("strips escapes and CRLF even when a chunk splits them", () => {
    const decoder = new PtyTextDecoder();
    const pieces = ["\x1b[?25lhel", "lo\r", "\n\x1b[3", "2mgreen\x1b[0m\r\n\x1b]0;ti", "tle\x07done"];
    const text = pieces.map((p) => decoder.push(p)).join("") + decoder.end();
    expect(text).toBe("hello\ngreen\ndone");
  });

  it("streams a process's output as it comes, before the process exits", async () => {
    let push: (text: string) => void = () => {};
    let close: () => void = () => {};
    let exit: (code: number) => void = () => {};
    const process: WcProcess = {
      exit: new Promise((r) => (exit = r)),
      output: new ReadableStream<string>({
        start(controller) {
          push = (text) => controller.enqueue(text);
          close = () => controller.close();
        },
      }),
      kill: () => {},
    };
    const spawned: Array<{ command: string; args: string[] }> = [];
    const instance = {
      workdir: "/home/workspace",
      fs: { watch: () => ({ close() {} }) },
      spawn: async (command: string, args: string[]) => {
        spawned.push({ command, args });
        return process;
      },
      teardown() {},
    } as unknown as WcInstance;
    const runtime = createWebContainerRuntime(instance);
    const seen: string[] = [];
    const running = runtime.exec("npm run build", { onOutput: (chunk) => seen.push(chunk.text) });
    await new Promise((r) => setTimeout(r, 10));
    push("\x1b[1mbuilding\x1b[22m\r\n");
    await new Promise((r) => setTimeout(r, 10));
    expect(seen.join("")).toBe("building\n");
    push("done\r\n");
    close();
    exit(0);
    const result = await running;
    expect(spawned).toEqual([{ command: "jsh", args: ["-c", "npm run build"] }]);
    expect(result).toMatchObject({ exitCode: 0, output: "building\ndone\n", stderr: "" });
  });
});
