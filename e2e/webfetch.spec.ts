/**
 * The web tools in Chromium: webfetch on a site that allows the page (converted in the page, with the
 * browser's own parser), a site that refuses cross-origin reads without a proxy (the error names the fix)
 * and with one set in Settings → Web, an image as an attachment; and an MCP server (the official SDK's,
 * started here, sending CORS headers) connected from the page, called, killed and retried.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestMcpServer, type TestMcpServer } from "../test/support/mcp-server.js";
import { PNG_1X1, startWebServer, type WebServer } from "../test/support/web-server.js";
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";

let site: WebServer;
let proxy: Server;
let proxyUrl: string;
let proxied: string[] = [];

const PAGE = "<html><head><script>steal()</script></head><body><h1>Title</h1><p>Some <b>bold</b> text.</p><!-- hidden --></body></html>";

test.beforeAll(async () => {
  site = await startWebServer({
    "/open": (_q, r) => r.writeHead(200, { "content-type": "text/html", "access-control-allow-origin": "*" }).end(PAGE),
    "/closed": (_q, r) => r.writeHead(200, { "content-type": "text/html" }).end("<h2>Behind CORS</h2><p>Only through a proxy.</p>"),
    "/image": (_q, r) => r.writeHead(200, { "content-type": "image/png", "access-control-allow-origin": "*" }).end(PNG_1X1),
  });
  // A fetch proxy as people run them: fetches the target itself and answers with CORS headers.
  proxy = createServer(async (request, response) => {
    const target = new URL(request.url ?? "/", "http://x").searchParams.get("target") ?? "";
    proxied.push(target);
    const upstream = await fetch(target);
    response.writeHead(upstream.status, {
      "content-type": upstream.headers.get("content-type") ?? "text/plain",
      "access-control-allow-origin": "*",
    });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/?target={url}`;
});
test.afterAll(async () => {
  await site.close();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

test("webfetch converts an allowing site's page to markdown in the page", async ({ page, consoleErrors }) => {
  await openWorkbench(page, freshWorkspace("webfetch"));
  await runTool(page, "webfetch", { url: `${site.url}/open` });
  const card = callCard(page, 0);
  await expect(card).toHaveAttribute("data-state", "completed");
  const output = card.getByTestId("call-output");
  await expect(output).toContainText("# Title");
  await expect(output).toContainText("Some **bold** text.");
  await expect(output).not.toContainText("steal");
  await expect(output).not.toContainText("hidden");
  expect(consoleErrors.filter((error) => !error.includes("Failed to load resource"))).toEqual([]);
});

test("a site refusing cross-origin reads: a plain error naming the setting, then fetched through the proxy", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("webfetch-cors"));
  await runTool(page, "webfetch", { url: `${site.url}/closed` });
  const refused = callCard(page, 0);
  await expect(refused).toHaveAttribute("data-state", "error");
  await expect(refused).toContainText("does not allow other sites' pages to read it (CORS)");
  await expect(refused).toContainText("Settings → Web");
  await expect(refused).toContainText('"workbench": { "fetchProxy"');
  expect(proxied).toEqual([]);

  await page.getByTestId("open-settings").click();
  const settings = page.getByTestId("settings");
  await settings.getByTestId("fetch-proxy").fill("ftp://nope/{url}");
  await settings.getByTestId("fetch-proxy").press("Enter");
  await expect(settings.getByTestId("fetch-proxy-message")).toContainText("must be an http or https address");
  await settings.getByTestId("fetch-proxy").fill(proxyUrl);
  await settings.getByTestId("fetch-proxy").press("Enter");
  await expect(settings.getByTestId("fetch-proxy-message")).toContainText("Saved");
  await page.screenshot({ path: "e2e/screenshots/webfetch-settings.png" });
  await page.keyboard.press("Escape");

  await runTool(page, "webfetch", { url: `${site.url}/closed` });
  const through = callCard(page, 1);
  await expect(through).toHaveAttribute("data-state", "completed");
  await expect(through.getByTestId("call-output")).toContainText("## Behind CORS");
  expect(proxied).toEqual([`${site.url}/closed`]);
  const requests = site.requests.filter((request) => request.path === "/closed");
  for (const request of requests) expect(request.headers.cookie).toBeUndefined();
});

test("an untrusted workspace's own proxy is not used, and the error says why", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("webfetch-held"));
  await runInTerminal(page, `echo '{"workbench":{"fetchProxy":"${proxyUrl}"}}' > opencode.json`);
  await waitForIdle(page);
  await page.getByRole("button", { name: "New session" }).click();
  await runTool(page, "webfetch", { url: `${site.url}/closed` });
  const card = callCard(page, 0);
  await expect(card).toHaveAttribute("data-state", "error");
  await expect(card).toContainText("used only once you trust the workspace");
  expect(proxied.filter((url) => url.endsWith("/closed"))).toHaveLength(1);
});

test("an image comes back as an attachment", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("webfetch-image"));
  await runTool(page, "webfetch", { url: `${site.url}/image` });
  const card = callCard(page, 0);
  await expect(card).toHaveAttribute("data-state", "completed");
  await expect(card.getByTestId("call-output")).toContainText("Image fetched successfully");
  await expect(card.locator("img")).toHaveCount(1);
});

test.describe("an MCP server from the page", () => {
  let mcp: TestMcpServer;
  test.beforeAll(async () => {
    mcp = await startTestMcpServer(0, { cors: true });
  });
  test.afterAll(() => mcp.kill());

  test("connects once trusted, lists and calls its tools, shows it failed when killed, and retries", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("mcp"));
    await runInTerminal(
      page,
      `echo '{"mcp":{"srv":{"type":"remote","url":"${mcp.url}"},"cmd":{"type":"local","command":["my-server"]}}}' > opencode.json`,
    );
    await waitForIdle(page);
    await page.getByRole("button", { name: "New session" }).click();
    const panel = page.getByTestId("mcp-servers");
    await expect(panel.locator("[data-name=srv]")).toHaveAttribute("data-state", "failed");
    await panel.getByTestId("mcp-trust").first().click();
    await expect(panel.locator("[data-name=srv]")).toHaveAttribute("data-state", "connected");
    await expect(panel.locator("[data-name=srv]")).toContainText("srv_echo, srv_fail, srv_slow");
    await expect(panel.locator("[data-name=cmd]")).toContainText("a browser tab cannot do");
    await page.screenshot({ path: "e2e/screenshots/mcp-servers.png" });

    await runTool(page, "srv_echo", { text: "from the page" });
    await expect(callCard(page, 0)).toHaveAttribute("data-state", "completed");
    await expect(callCard(page, 0).getByTestId("call-output")).toContainText("echo: from the page");

    await runTool(page, "srv_slow", { text: "x" });
    await mcp.slowStarted;
    const port = Number(new URL(mcp.url).port);
    await mcp.kill();
    await expect(callCard(page, 1)).toHaveAttribute("data-state", "error");
    await expect(panel.locator("[data-name=srv]")).toHaveAttribute("data-state", "failed");
    await expect(panel.locator("[data-name=srv] [data-testid=mcp-error]")).not.toBeEmpty();

    mcp = await startTestMcpServer(port, { cors: true });
    await panel.locator("[data-name=srv]").getByTestId("mcp-retry").click();
    await expect(panel.locator("[data-name=srv]")).toHaveAttribute("data-state", "connected");
    await runTool(page, "srv_echo", { text: "again" });
    await expect(callCard(page, 2).getByTestId("call-output")).toContainText("echo: again");
  });
});
