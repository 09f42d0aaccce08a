/**
 * The workspace config edited outside Settings (the editor, the terminal, a tool) applies at the next call,
 * as Settings' saves do, and the pane says so; a broken edit leaves the settings before in force, with why.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mayTouchConfig } from "../../src/page/config-watch.js";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { MemoryShelf, ShelfSessionStore } from "../../src/session/record/key-value-session-store.js";
import { ToolsController } from "../../src/ui/tools/tools-controller.js";

let runtime: EmbeddedRuntime | undefined;
let controller: ToolsController | undefined;
afterEach(async () => {
  await controller?.state().sessions?.current.close();
  controller?.dispose();
  await runtime?.dispose();
  controller = undefined;
  runtime = undefined;
});

async function opened(): Promise<{ controller: ToolsController; runtime: EmbeddedRuntime }> {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  await runtime.fs.writeFile(`${runtime.root}/keep.txt`, "kept\n");
  controller = new ToolsController({
    place: { workspace: "ws-config", memoryOnly: true },
    readOnly: false,
    openStore: async () => ({ store: new ShelfSessionStore(new MemoryShelf()) }),
    trust: { isTrusted: () => false, remember: () => true, forget: () => undefined },
  });
  await controller.open(runtime);
  return { controller, runtime };
}

const run = async (controller: ToolsController, command: string) => {
  const started = controller.run("bash", { command, description: "Runs it" });
  if (!started) throw new Error("no session to run in");
  return started.done;
};

describe("contract: an edited opencode.json applies at the next call", () => {
  it("a change written by a command is in force for the next call, in the same session, and the note says so", async () => {
    const { controller } = await opened();
    const first = controller.page()!;
    expect((await run(controller, "echo one")).status).toBe("completed");
    expect((await run(controller, `echo '{"permission":{"bash":{"rm *":"deny"}}}' > opencode.json`)).status).toBe("completed");
    await controller.applyConfigChange();
    expect(controller.page()).not.toBe(first);
    expect(controller.page()!.record.id).toBe(first.record.id);
    expect(controller.state().configNote?.text).toMatch(/opencode\.json changed: .* next call/);
    const denied = await run(controller, "rm keep.txt");
    expect(denied.status).toBe("error");
    expect(controller.page()!.calls).toHaveLength(3);
  });

  it("waits while the chat answers, then applies once asked again", async () => {
    const { controller, runtime } = await opened();
    const first = controller.page()!;
    controller.chatBusy = () => true;
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, '{"permission":{"bash":{"rm *":"deny"}}}');
    await controller.applyConfigChange();
    expect(controller.page()).toBe(first);
    expect(controller.state().configNote?.text).toContain("once this one (or the chat's answer) ends");
    controller.chatBusy = () => false;
    await controller.applyConfigChange();
    expect(controller.page()).not.toBe(first);
    expect((await run(controller, "rm keep.txt")).status).toBe("error");
  });

  it("a broken edit is reported, the settings before stay in force, and fixing it applies", async () => {
    const { controller, runtime } = await opened();
    const first = controller.page()!;
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, '{"permission": {"bash": ');
    await controller.applyConfigChange();
    expect(controller.state().configNote).toMatchObject({ error: true });
    expect(controller.state().configNote?.text).toContain("cannot be applied");
    expect(controller.page()).toBe(first);
    expect((await run(controller, "echo still")).status).toBe("completed");
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, '{"permission":{"bash":{"rm *":"deny"}}}');
    await controller.applyConfigChange();
    expect(controller.state().configNote?.error).toBeUndefined();
    expect((await run(controller, "rm keep.txt")).status).toBe("error");
  });

  it("the same text written again is no change: the session is not reopened", async () => {
    const { controller, runtime } = await opened();
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, "{}");
    await controller.applyConfigChange();
    const after = controller.page()!;
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, "{}");
    await controller.applyConfigChange();
    expect(controller.page()).toBe(after);
  });

  it("a session switched back to, opened before the edit, is brought up to date too", async () => {
    const { controller, runtime } = await opened();
    const first = controller.page()!;
    await controller.create();
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, '{"permission":{"bash":{"rm *":"deny"}}}');
    await controller.applyConfigChange();
    await controller.switchTo(first.record.id);
    await controller.applyConfigChange();
    expect(controller.page()!.record.id).toBe(first.record.id);
    expect(controller.page()).not.toBe(first);
    expect((await run(controller, "rm keep.txt")).status).toBe("error");
  });

  it("only the root's opencode.json or opencode.jsonc (or an unknown change) counts", () => {
    expect(mayTouchConfig("/workspace", ["/workspace/opencode.json"])).toBe(true);
    expect(mayTouchConfig("/workspace", ["/workspace/opencode.jsonc"])).toBe(true);
    expect(mayTouchConfig("/workspace", "unknown")).toBe(true);
    expect(mayTouchConfig("/workspace", ["/workspace/src/opencode.json", "/workspace/a.txt"])).toBe(false);
  });
});
