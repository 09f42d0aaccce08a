/**
 * A sandbox that dies before its program listens (a spare started ahead, in a frame the browser ended)
 * must neither hang the next program nor fail it: the crash is kept for a listener that comes later,
 * and a spare that died while it waited is replaced by a fresh sandbox.
 */
import { describe, expect, it } from "vitest";
import type { Endpoint } from "../../../src/runtime/embedded/endpoint.js";
import type { Sandbox, SandboxFactory } from "../../../src/runtime/embedded/sandbox/contract.js";
import { requestSandboxes } from "../../../src/runtime/embedded/sandbox/remote.js";
import { withSpare } from "../../../src/runtime/embedded/sandbox/spare.js";

interface FakeSandbox extends Sandbox {
  id: number;
  crash(message: string): void;
  terminated: boolean;
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
    const open = withSpare(factory);
    const first = await open("node");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(made).toHaveLength(2);
    made[1]!.crash("the frame was ended");
    const second = (await open("node")) as Sandbox;
    const heard: string[] = [];
    second.onCrash((message) => heard.push(message));
    expect(made[1]!.terminated).toBe(true);
    // The program runs in the third sandbox made, which has not crashed.
    expect(made).toHaveLength(4);
    expect(heard).toEqual([]);
    made[2]!.crash("later");
    expect(heard).toEqual(["later"]);
    expect(first).not.toBe(second);
  });

  it("a crash between taking a spare and listening to it reaches the program's listener", async () => {
    const { factory, made } = fakeFactory();
    const open = withSpare(factory);
    const sandbox = await open("node");
    made[0]!.crash("out of memory");
    const heard: string[] = [];
    sandbox.onCrash((message) => heard.push(message));
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
