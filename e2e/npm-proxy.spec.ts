/**
 * npm in the page through the fetch proxy of Settings → Web (issue 27): a registry that sends no CORS
 * headers cannot be read by the page directly; with the proxy set, `npm install` in the terminal reads its
 * packuments through the proxy, as webfetch does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { npmDistTags, npmFixtures } from "../test/support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../test/support/npm-registry.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, screenLines, test, waitForIdle } from "./fixtures.js";

let registry: NpmRegistry;
/** The registry again, without CORS headers: the page may not read it. */
let closed: Server;
let closedUrl: string;
/** A fetch proxy as people run them: fetches the target itself and answers with CORS headers. */
let proxy: Server;
let proxyUrl: string;
const proxied: string[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.beforeAll(async () => {
  registry = await startNpmRegistry(npmFixtures, npmDistTags);
  closed = createServer(async (request, response) => {
    const upstream = await fetch(`${registry.url}${request.url ?? "/"}`);
    response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  closedUrl = await listen(closed);
  proxy = createServer(async (request, response) => {
    const target = new URL(request.url ?? "/", "http://x").searchParams.get("target") ?? "";
    proxied.push(target);
    const upstream = await fetch(target);
    response.writeHead(upstream.status, {
      "content-type": upstream.headers.get("content-type") ?? "application/json",
      "access-control-allow-origin": "*",
    });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  proxyUrl = `${await listen(proxy)}/?target={url}`;
});

test.afterAll(async () => {
  for (const server of [closed, proxy]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  await registry?.close();
});

test("npm install reads a registry without CORS through the proxy set in Settings → Web", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("npm-proxy"));
  await runInTerminal(page, `echo '{"name":"app","version":"1.0.0"}' > package.json && echo 'registry=${closedUrl}/' > .npmrc`);
  await waitForIdle(page);
  await runInTerminal(page, "npm install leaf@1.0.0; echo exit=$?");
  await waitForIdle(page);
  await expect.poll(async () => (await screenLines(page)).join("\n")).toContain("exit=1");
  expect(proxied).toEqual([]);

  await page.getByTestId("open-settings").click();
  const settings = page.getByTestId("settings");
  await settings.getByTestId("fetch-proxy").fill(proxyUrl);
  await settings.getByTestId("fetch-proxy").press("Enter");
  await expect(settings.getByTestId("fetch-proxy-message")).toContainText("Saved");
  await page.keyboard.press("Escape");

  await runInTerminal(page, "clear; npm install leaf@1.0.0 && cat node_modules/leaf/package.json | grep -c 1.0.0");
  await waitForIdle(page);
  await expect.poll(async () => (await screenLines(page)).join("\n"), { timeout: 30_000 }).toMatch(/added 1 package in/);
  expect(proxied).toContain(`${closedUrl}/leaf`);
  await page.getByTestId("terminal").screenshot({ path: "e2e/screenshots/npm-proxy-terminal.png" });
});
