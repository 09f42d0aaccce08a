/**
 * A sandbox that dies before its program listens (a spare started ahead, in a frame the browser ended)
 * must neither hang the next program nor fail it: the crash is kept for a listener that comes later,
 * and a spare that died while it waited is replaced by a fresh sandbox.
 */
import { describe, expect, it } from "vitest";
import type { Endpoint } from "../../../src/runtime/embedded/endpoint.js";
import type { Sandbox, SandboxFactory } from "../../../src/runtime/embedded/sandbox/contract.js";
import { requestSandboxes } from "../../../src/runtime/embedded/sandbox/remote.js";
import { WarmSandboxes } from "../../../src/runtime/embedded/node/warm-sandboxes.js";

interface FakeSandbox extends Sandbox {
  id: number;
  crash(message: string): void;
  terminated: boolean;
}

/** Sandboxes taken as `node` takes them, with no files to send. */
function opener(factory: SandboxFactory): (runtime: "node") => Promise<Sandbox> {
  const warm = new WarmSandboxes(factory, async () => ({ files: { kind: "full", entries: [] } }));
  return async () => (await warm.take(["/workspace"])).sandbox;
}

function fakeFactory(): { factory: SandboxFactory; made: FakeSandbox[] } {
  const made: FakeSandbox[] = [];
  const factory: SandboxFactory = async () => {
    let handler: ((message: string) => void) | undefined;
    const sandbox: FakeSandbox = {
      id: made.length + 1,
      terminated: false,
      endpoint: { post() {}, listen: () => () => {} } as unknown as Endpoint,
      onCrash: (next) => (handler = next),
      crash: (message) => handler?.(message),
      terminate() {
        sandbox.terminated = true;
      },
    };
    made.push(sandbox);
    return sandbox;
  };
  return { factory, made };
}

describe("a sandbox that died while it waited", () => {
  it("a spare that crashed before it was taken is thrown away and the program gets a fresh sandbox", async () => {
    const { factory, made } = fakeFactory();
    const open = opener(factory);
    const first = await open("node");
    await new Promise((resolve) => setTimeout(resolve, 0));
    const spare = made.find((each) => each.endpoint !== first.endpoint)!;
    spare.crash("the frame was ended");
    const second = await open("node");
    const heard: string[] = [];
    second.onCrash((message) => heard.push(message));
    expect(spare.terminated).toBe(true);
    expect(second.endpoint).not.toBe(spare.endpoint);
    expect(heard).toEqual([]);
    made.find((each) => each.endpoint === second.endpoint)!.crash("later");
    expect(heard).toEqual(["later"]);
  });

  it("a crash between taking a spare and listening to it reaches the program's listener", async () => {
    const { factory, made } = fakeFactory();
    const open = opener(factory);
    const first = await open("node");
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second = await open("node");
    const taken = made.find((each) => each.endpoint === second.endpoint)!;
    expect(taken.endpoint).not.toBe(first.endpoint);
    taken.crash("out of memory");
    const heard: string[] = [];
    second.onCrash((message) => heard.push(message));
    expect(heard).toEqual(["out of memory"]);
  });

  it("the shell worker's side keeps a crash that came before anyone listened", async () => {
    const listeners: ((message: unknown) => void)[] = [];
    const posted: unknown[] = [];
    const control = {
      post: (message: unknown) => posted.push(message),
      listen: (handler: (message: unknown) => void) => {
        listeners.push(handler);
        return () => {};
      },
    } as unknown as Endpoint;
    const open = requestSandboxes(control);
    const opening = open("node");
    const { port1 } = new MessageChannel();
    for (const listener of listeners) listener({ kind: "sandbox-opened", id: 1, port: port1 });
    const sandbox = await opening;
    for (const listener of listeners) listener({ kind: "sandbox-crashed", id: 1, message: "the frame was ended" });
    const heard: string[] = [];
    sandbox.onCrash((message) => heard.push(message));
    expect(heard).toEqual(["the frame was ended"]);
    sandbox.terminate();
    port1.close();
  });
});
