/**
 * Issue 30.10: an embed opens on what its author gave. With no view named it shows the host's first file
 * (not "No calls yet"); `open` names another; "Editor" shows a file, never the terminal; `clickToLoad`
 * wears the author's theme; and the host page's console stays clean (no postMessage target-origin error
 * while the frame loads). Screenshots in light and dark are written to e2e/screenshots.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";

const WORKBENCH = `http://127.0.0.1:${Number(process.env.PW_PORT ?? 4321)}/`;

const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title></head><body>
<div id="a"></div>
<script type="module">
  window.lib = await import(${JSON.stringify(`${WORKBENCH}embed.js`)});
  document.body.dataset.ready = "1";
</script></body></html>`;

const FILES = {
  "README.md": "# Hello\n\nThe docs' example.\n",
  "src/mod10.js": "export const ten = 10;\n",
  "src/mod2.js": "export const two = 2;\n",
};

let host: Server;
let hostOrigin: string;
test.beforeAll(async () => {
  host = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(HOST_PAGE));
  await new Promise<void>((resolve) => host.listen(0, "localhost", resolve));
  hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  host.closeAllConnections();
  await new Promise((resolve) => host.close(resolve));
});

/** Every console warning and error of the host page and its frames. */
function watchConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") seen.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => seen.push(`pageerror: ${error.message}`));
  return seen;
}

async function embed(page: Page, options: Record<string, unknown>, wait = true): Promise<void> {
  await page.goto(`${hostOrigin}/`);
  await expect(page.locator("body[data-ready]")).toBeAttached();
  const started = page.evaluate(async (options) => {
    await (window as unknown as { lib: { embed: (el: string, o: unknown) => Promise<unknown> } }).lib.embed("a", options);
  }, options);
  if (wait) await started;
  else started.catch(() => {});
}

const editor = (page: Page, path: string) => page.frameLocator("#a").locator(`[data-testid=file-editor][data-path="/workspace/${path}"]`);

test("with no view named, the embed opens on the host's first file, in the author's theme, with a clean console", async ({ page }) => {
  const seen = watchConsole(page);
  for (const theme of ["light", "dark"] as const) {
    await embed(page, { files: FILES, theme });
    const frame = page.frameLocator("#a");
    await expect(frame.getByTestId("embed-app")).toHaveAttribute("data-view", "editor");
    await expect(editor(page, "README.md")).toContainText("The docs' example.");
    await expect(frame.locator("html")).toHaveAttribute("data-theme", theme);
    await expect(frame.getByText("No calls yet")).toBeHidden();
    await page.locator("#a").screenshot({ path: `e2e/screenshots/embed-first-file-${theme}.png` });
  }
  expect(seen).toEqual([]);
});

test("open names the file shown; Editor after Chat shows a file, not the terminal", async ({ page }) => {
  const seen = watchConsole(page);
  await embed(page, { files: FILES, open: ["src/mod2.js"] });
  await expect(editor(page, "src/mod2.js")).toContainText("export const two = 2;");

  await embed(page, { files: FILES, view: "chat" });
  const frame = page.frameLocator("#a");
  await expect(frame.getByTestId("embed-app")).toHaveAttribute("data-view", "chat");
  await frame.getByTestId("embed-view-editor").click();
  await expect(editor(page, "README.md")).toContainText("# Hello");
  await expect(frame.getByTestId("terminal")).toBeHidden();

  // Named "editor" with no file: the first file in natural order (README.md at the root comes first).
  await embed(page, { files: { "src/mod10.js": FILES["src/mod10.js"], "src/mod2.js": FILES["src/mod2.js"] }, view: "editor" });
  await expect(editor(page, "src/mod2.js")).toContainText("export const two = 2;");
  expect(seen).toEqual([]);
});

test("clickToLoad in the dark theme is dark before the reader loads it", async ({ page }) => {
  const seen = watchConsole(page);
  await embed(page, { files: FILES, theme: "dark", clickToLoad: true }, false);
  const frame = page.frameLocator("iframe#a");
  const button = frame.getByTestId("embed-load");
  await expect(button).toBeVisible();
  await expect(frame.locator("html")).toHaveAttribute("data-theme", "dark");
  // The frame's page is painted dark (its background's lightness is low), not a white box.
  const background = await frame.locator("body").evaluate((body) => getComputedStyle(body).backgroundColor);
  const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
  expect((r! + g! + b!) / 3).toBeLessThan(60);
  await page.locator("#a").screenshot({ path: "e2e/screenshots/embed-click-to-load-dark.png" });
  await button.click();
  await expect(editor(page, "README.md")).toContainText("# Hello");
  expect(seen).toEqual([]);
});
