/**
 * The fetch proxy in Settings is the visitor's own (it may run on their machine, reach their network, or
 * carry a token in its address). An embed's frame runs on the workbench's origin, so it could read it from
 * localStorage; but a host page starts webfetch calls there (allowed by default, no prompt) and reads their
 * output, so an embed's sessions must never route through it. The top-level page still does. A real proxy
 * and a refused direct fetch (a closed port) on 127.0.0.1; localStorage as the page has it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { PageTools } from "../../src/page/page-tools.js";

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

let proxy: Server;
let proxied: string[];
let closedPort: number;
let runtime: EmbeddedRuntime;

beforeEach(async () => {
  proxied = [];
  proxy = createServer((request, response) => {
    proxied.push(request.url ?? "");
    response.writeHead(200, { "content-type": "text/plain" }).end("answer from the visitor's proxy");
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  localStorage.setItem("workbench.fetchProxy", `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/?token=VISITOR-SECRET&url={url}`);
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
});

afterEach(async () => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await runtime.dispose();
});

describe("an embed never fetches through the visitor's own proxy", () => {
  it("the top-level page uses it when the direct fetch is refused", async () => {
    const page = await PageTools.open(runtime);
    const call = await page.session.run("webfetch", { url: `http://127.0.0.1:${closedPort}/page`, format: "text" });
    expect(call.output).toBe("answer from the visitor's proxy");
    expect(proxied).toHaveLength(1);
  });

  it("an embed's session does not, and says it has no proxy", async () => {
    const page = await PageTools.open(runtime, { ownProxy: false });
    const call = await page.session.run("webfetch", { url: `http://127.0.0.1:${closedPort}/page`, format: "text" });
    expect(call.status).toBe("error");
    expect(call.error).toMatch(/could not be read from the page/);
    expect(proxied).toEqual([]);
    // Reopened (a config from the host put in force), it still does not.
    const again = await page.reopen();
    await again.session.run("webfetch", { url: `http://127.0.0.1:${closedPort}/other`, format: "text" });
    expect(proxied).toEqual([]);
  });
});
