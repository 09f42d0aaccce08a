/**
 * The file host's bulk write as the shell worker reaches it (fs-rpc.ts): writeMany over the message port
 * writes every file with its folders and announces one change; a read-only workspace refuses it and keeps
 * nothing; a host without a bulk write answers ENOSYS instead of leaving the caller waiting.
 */
import { MessageChannel } from "node:worker_threads";
import { InMemory, resolveMountConfig } from "@zenfs/core";
import { afterEach, describe, expect, it } from "vitest";
import { endpointOf } from "../../src/runtime/embedded/endpoint.js";
import { createFsClient, serveFs } from "../../src/runtime/embedded/fs-rpc.js";
import type { WorkspaceFs } from "../../src/runtime/embedded/workspace-fs.js";
import { createZenFsHost } from "../../src/runtime/embedded/zenfs-host.js";

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function connect(host: WorkspaceFs) {
  const channel = new MessageChannel();
  channels.push(channel);
  serveFs(host, endpointOf(channel.port1 as never));
  return createFsClient(endpointOf(channel.port2 as never));
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("writeMany through the file host's port", () => {
  it("writes every file, making folders, with one change announced", async () => {
    const changes: string[][] = [];
    const host = createZenFsHost(await resolveMountConfig({ backend: InMemory }), { onChange: (paths) => changes.push(paths) });
    const client = connect(host) as WorkspaceFs & { writeMany(files: Array<{ path: string; data: Uint8Array }>): Promise<void> };
    const encoder = new TextEncoder();
    await client.writeMany([
      { path: "/w/node_modules/a/package.json", data: encoder.encode('{"name":"a"}') },
      { path: "/w/node_modules/a/lib/deep/x.js", data: encoder.encode("x") },
      { path: "/w/node_modules/b/index.js", data: encoder.encode("b") },
    ]);
    expect(text(await host.readFile("/w/node_modules/a/lib/deep/x.js"))).toBe("x");
    expect(text(await client.readFile("/w/node_modules/b/index.js"))).toBe("b");
    expect(changes).toHaveLength(1);
    expect(changes[0]).toContain("/w/node_modules/a/package.json");
  });

  it("a read-only workspace refuses it and keeps nothing", async () => {
    const host = createZenFsHost(await resolveMountConfig({ backend: InMemory }), { readOnly: true });
    const client = connect(host) as WorkspaceFs & { writeMany(files: Array<{ path: string; data: Uint8Array }>): Promise<void> };
    await expect(client.writeMany([{ path: "/x.txt", data: new Uint8Array([1]) }])).rejects.toMatchObject({ code: "EROFS" });
    await expect(host.stat("/x.txt")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a host without a bulk write answers ENOSYS", async () => {
    const host = createZenFsHost(await resolveMountConfig({ backend: InMemory }));
    const { writeMany: _none, ...plain } = host;
    const client = connect(plain as WorkspaceFs) as WorkspaceFs & {
      writeMany(files: Array<{ path: string; data: Uint8Array }>): Promise<void>;
    };
    await expect(client.writeMany([{ path: "/x.txt", data: new Uint8Array([1]) }])).rejects.toMatchObject({ code: "ENOSYS" });
  });
});
