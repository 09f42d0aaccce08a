/**
 * The page's fetch proxy reaches the embedded shell's npm (EmbeddedRuntime.setFetchProxy, set by the page
 * from Settings → Web or a trusted opencode.json): a registry the page cannot reach directly (here: a
 * closed port) is read through the proxy, a changed setting counts from the next command, a value a
 * terminal carried over is replaced, and with no proxy the install fails naming what it could not fetch.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { npmDistTags, npmFixtures } from "../../support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../../support/npm-registry.js";
import { startWebServer, type WebServer } from "../../support/web-server.js";

/** Nothing listens on port 1: a direct request fails to connect, as a registry without CORS does in a page. */
const UNREACHABLE = "http://127.0.0.1:1";
const dir = "/workspace/app";

let registry: NpmRegistry;
let proxy: WebServer;
let runtime: EmbeddedRuntime;
/** What the proxy was asked for, decoded. */
const proxied: string[] = [];

beforeAll(async () => {
  registry = await startNpmRegistry(npmFixtures, npmDistTags);
  // Forwards `/?url=<target>` to the stand-in registry (the target's host is the unreachable one).
  proxy = await startWebServer({
    "/": async (request, response) => {
      const target = new URL(request.url ?? "/", "http://x").searchParams.get("url") ?? "";
      proxied.push(target);
      const upstream = await fetch(target.replace(UNREACHABLE, registry.url));
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    },
  });
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
}, 60_000);

afterAll(async () => {
  await runtime?.dispose();
  await proxy?.close();
  await registry?.close();
});

beforeEach(async () => {
  proxied.length = 0;
  await runtime.fs.rm(dir, { recursive: true, force: true });
  await runtime.fs.mkdir(dir, { recursive: true });
  await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify({ name: "app", version: "1.0.0" }, null, 2)}\n`);
  await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${UNREACHABLE}/\n`);
});

describe("npm through the page's fetch proxy", () => {
  it("installs from a registry it cannot reach directly, through the proxy set now", { timeout: 60_000 }, async () => {
    let template: string | undefined = `${proxy.url}/?url={url}`;
    runtime.setFetchProxy(() => template);
    const result = await runtime.exec("npm install leaf@1.0.0", { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    const installed = JSON.parse(new TextDecoder().decode(await runtime.fs.readFile(`${dir}/node_modules/leaf/package.json`)));
    expect(installed.version).toBe("1.0.0");
    expect(proxied).toContain(`${UNREACHABLE}/leaf`);

    // The setting changes: the next command has no proxy, even when a terminal carries the old value over.
    template = undefined;
    const carried = await runtime.exec('echo "[$WORKBENCH_FETCH_PROXY]"', { env: { WORKBENCH_FETCH_PROXY: `${proxy.url}/?url={url}` } });
    expect(carried.stdout).toBe("[]\n");
    proxied.length = 0;
    // A package not fetched before (what was is cached, and installs offline).
    const without = await runtime.exec("npm install tagged", { cwd: dir });
    expect(without.exitCode).toBe(1);
    expect(without.stderr).toContain(`${UNREACHABLE}/tagged`);
    expect(proxied).toEqual([]);
  });

  it("a proxy set in the page is what the shell sees, replacing one carried over", async () => {
    runtime.setFetchProxy(() => `${proxy.url}/fresh?url={url}`);
    const result = await runtime.exec('echo "$WORKBENCH_FETCH_PROXY"', {
      env: { WORKBENCH_FETCH_PROXY: "http://stale.example/?url={url}" },
    });
    expect(result.stdout).toBe(`${proxy.url}/fresh?url={url}\n`);
  });
});
