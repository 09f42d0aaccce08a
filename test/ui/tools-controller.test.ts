import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import type { PageTools } from "../../src/page/page-tools.js";
import { MemoryShelf, ShelfSessionStore } from "../../src/session/record/key-value-session-store.js";
import { orderByCall, shortcutOf, ToolsController, type TrustMemory } from "../../src/ui/tools/tools-controller.js";

const runtimes: EmbeddedRuntime[] = [];
const controllers: ToolsController[] = [];

afterEach(async () => {
  for (const controller of controllers.splice(0)) {
    await controller.state().sessions?.current.close();
    controller.dispose();
  }
  while (runtimes.length > 0) await runtimes.pop()!.dispose();
});

async function runtimeWith(files: Record<string, string>): Promise<EmbeddedRuntime> {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  runtimes.push(runtime);
  for (const [path, text] of Object.entries(files)) await runtime.fs.writeFile(`${runtime.root}/${path}`, text);
  return runtime;
}

function controllerOf(options: { trust?: TrustMemory; notice?: string } = {}): ToolsController {
  const controller = new ToolsController({
    place: { workspace: "ws-test", memoryOnly: false },
    readOnly: false,
    openStore: async () => ({ store: new ShelfSessionStore(new MemoryShelf()), notice: options.notice }),
    trust: options.trust ?? { isTrusted: () => false, remember: () => true, forget: () => undefined },
  });
  controllers.push(controller);
  return controller;
}

const nextPrompt = (page: PageTools) =>
  new Promise<void>((resolve) => {
    if (page.pending().length > 0) return resolve();
    const off = page.onPromptsChanged(() => {
      off();
      resolve();
    });
  });

describe("contract: the Tools pane's controller works without a DOM", () => {
  it("opens the workspace's sessions on a runtime, says so to its listeners, and passes the store's notice on", async () => {
    const controller = controllerOf({ notice: "sessions live in memory" });
    let told = 0;
    controller.subscribe(() => told++);
    expect(controller.page()).toBeUndefined();
    await controller.open(await runtimeWith({}));
    expect(told).toBeGreaterThan(0);
    expect(controller.page()?.record.calls).toEqual([]);
    expect(controller.state().storeNotice).toBe("sessions live in memory");
  });

  it("runs a call in the current session", async () => {
    const controller = controllerOf();
    await controller.open(await runtimeWith({ "a.txt": "alpha\n" }));
    const started = controller.run("read", { filePath: "a.txt" });
    expect(controller.page()!.calls).toContain(started!.call);
    const call = await started!.done;
    expect(call.status).toBe("completed");
    expect(call.output).toContain("alpha");
  });

  it("moves between sessions one at a time, and a failed move says why", async () => {
    const controller = controllerOf();
    await controller.open(await runtimeWith({}));
    const first = controller.page()!.record.id;
    const moving: boolean[] = [];
    controller.subscribe(() => moving.push(controller.state().moving));
    await controller.create();
    expect(controller.page()!.record.id).not.toBe(first);
    expect(moving[0]).toBe(true);
    expect(controller.state().moving).toBe(false);
    expect(controller.run("read", { filePath: "x" })).toBeDefined();
    await controller.switchTo("ses_gone");
    expect(controller.state().sessionError).toContain("no session ses_gone");
    await controller.switchTo(first);
    expect(controller.page()!.record.id).toBe(first);
    expect(controller.state().sessionError).toBeUndefined();
  });

  it("answers a prompt; always with save writes the approval to the workspace config and says where", async () => {
    const runtime = await runtimeWith({ "opencode.json": '{"permission":{"edit":"ask"}}' });
    const controller = controllerOf();
    await controller.open(runtime);
    const { done } = controller.run("write", { filePath: "n.txt", content: "new" })!;
    await nextPrompt(controller.page()!);
    const [request] = controller.pending();
    expect(request!.permission).toBe("edit");
    expect(controller.inputOf(request!.tool?.callID)).toEqual({ filePath: "n.txt", content: "new" });
    await controller.answer(request!, "always", undefined, true);
    expect((await done).status).toBe("completed");
    expect(controller.state().note?.text).toMatch(/^Saved edit: .+ to .*opencode\.json$/);
    const config = new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/opencode.json`));
    expect(JSON.parse(config).permission.edit).toMatchObject({ [request!.always[0]!]: "allow" });
  });

  it("trusting reopens the session trusted; a browser that cannot remember it gets told", async () => {
    const asked: string[] = [];
    const controller = controllerOf({
      trust: { isTrusted: () => false, remember: (ws) => (asked.push(ws), false), forget: () => undefined },
    });
    await controller.open(await runtimeWith({}));
    const before = controller.page()!;
    await controller.setTrust(true);
    expect(asked).toEqual(["ws-test"]);
    expect(controller.page()).not.toBe(before);
    expect(controller.page()!.trusted).toBe(true);
    expect(controller.page()!.record.id).toBe(before.record.id);
    expect(controller.state().note?.text).toContain("Trusted for this page only");
    expect(controller.state().trusting).toBe(false);
  });
});

describe("contract: the prompt queue follows the calls", () => {
  const ask = (id: string, callID?: string) => ({
    id,
    sessionID: "s",
    permission: "bash",
    patterns: [id],
    always: [],
    metadata: {},
    ...(callID ? { tool: { messageID: "m", callID } } : {}),
  });

  it("prompts come in the order their calls started, whatever order they were asked in", () => {
    const calls = [{ id: "c1" }, { id: "c2" }, { id: "c3" }];
    const asked = [ask("p3", "c3"), ask("p1", "c1"), ask("loose"), ask("p2a", "c2"), ask("p2b", "c2")];
    expect(orderByCall(asked, calls).map((p) => p.id)).toEqual(["p1", "p2a", "p2b", "p3", "loose"]);
    expect(orderByCall(asked, []).map((p) => p.id)).toEqual(asked.map((p) => p.id));
  });

  it("a prompt knows its call: tool, title and input", async () => {
    const runtime = await runtimeWith({ "opencode.json": '{"permission":{"edit":"ask"}}' });
    const controller = controllerOf();
    await controller.open(runtime);
    const { call, done } = controller.run("write", { filePath: "n.txt", content: "new" })!;
    await nextPrompt(controller.page()!);
    const [request] = controller.pending();
    expect(controller.callOf(request!.tool?.callID)).toMatchObject({
      id: call.id,
      tool: "write",
      input: { filePath: "n.txt", content: "new" },
    });
    expect(controller.callOf(undefined)).toBeUndefined();
    await controller.answer(request!, "reject");
    await done;
  });
});

describe("contract: the pane's keys", () => {
  const key = (k: string, ctrl = false) => ({ key: k, ctrlKey: ctrl, metaKey: false });
  it("Ctrl+K toggles the palette, Escape closes what is open, settings take Escape first", () => {
    expect(shortcutOf(key("k", true), { settings: false, palette: false })).toBe("open-palette");
    expect(shortcutOf(key("K", true), { settings: false, palette: true })).toBe("close-palette");
    expect(shortcutOf(key("Escape"), { settings: false, palette: true })).toBe("close-palette");
    expect(shortcutOf(key("Escape"), { settings: true, palette: true })).toBe("close-settings");
    expect(shortcutOf(key("k", true), { settings: true, palette: false })).toBeUndefined();
    expect(shortcutOf(key("Escape"), { settings: false, palette: false })).toBeUndefined();
    expect(shortcutOf(key("k"), { settings: false, palette: false })).toBeUndefined();
  });
});
