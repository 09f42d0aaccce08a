/**
 * Share links through the page: a workspace with binary and non-ASCII names goes out as a link and comes back
 * byte for byte in a new workspace (the visitor's own untouched); a share too big for a link goes through the
 * .workbench.json file, picked or fetched with #from= from another origin; a session shows as it was and
 * offers Replay; hostile links are refused with a message and nothing written.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { deflateSync, strToU8, unzipSync, zipSync } from "fflate";
import type { Page } from "@playwright/test";
import { encodeShareLink } from "../src/embed/share/index.js";
import { toBase64Url } from "../src/embed/share/base64url.js";
import { fixtureFiles, fixtureSession } from "../test/support/share-fixture.js";
import { expect, freshWorkspace, openWorkbench, test } from "./fixtures.js";

const treeRow = (page: Page, path: string) => page.locator(`.file-tree li[data-path="/workspace/${path}"]`);

const FILES: Record<string, Uint8Array> = {
  "README.md": strToU8("# Shared from the page\n"),
  "ünïcödé/名前 ✓.txt": strToU8("non-ASCII: ü ✓ 名前\n"),
  "bin/all-bytes.bin": Uint8Array.from({ length: 512 }, (_, i) => (i * 11 + 5) % 256),
  "bin/zeros.dat": Uint8Array.of(1, 0, 2, 0, 255),
  "bom.txt": Uint8Array.of(0xef, 0xbb, 0xbf, 0x6f, 0x6b, 0x0d, 0x0a),
};

/** The workspace as the page's Download .zip gives it: path -> bytes as hex. */
async function downloadedFiles(page: Page): Promise<Record<string, string>> {
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download .zip" }).click();
  const stream = await (await downloading).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const entries = unzipSync(new Uint8Array(Buffer.concat(chunks)));
  return Object.fromEntries(
    Object.entries(entries)
      .filter(([path]) => !path.endsWith("/"))
      .map(([path, data]) => [path, Buffer.from(data).toString("hex")]),
  );
}

const hex = (files: Record<string, Uint8Array>) =>
  Object.fromEntries(Object.entries(files).map(([path, data]) => [path, Buffer.from(data).toString("hex")]));

async function sharedDatabases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? "").filter((name) => name.includes("shared-")));
}

test("a workspace round-trips through a share link, byte for byte, into a new workspace", async ({ page, consoleErrors }) => {
  const own = freshWorkspace("share-src");
  await openWorkbench(page, own, "chat");
  await page
    .getByTestId("upload-zip")
    .setInputFiles({ name: "files.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(FILES)) });
  await expect(page.getByTestId("notice")).toContainText("Imported 5 files");
  await page.getByTestId("share-button").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog.getByTestId("share-link")).toBeVisible();
  const link = await dialog.getByTestId("share-link").inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#share=1\.[\w-]+$/);
  await expect(dialog.getByTestId("share-length")).toContainText(`${link.length.toLocaleString("en")} characters`);
  await page.screenshot({ path: "e2e/screenshots/share-dialog.png" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 760 });
  await expect(dialog.getByTestId("share-copy")).toBeInViewport();
  await page.screenshot({ path: "e2e/screenshots/share-dialog-dark-390.png" });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Pasted into the same tab: only the hash changes, which must still open the share.
  await page.goto(link.replace(/\/#/, `/${own}#`));
  await expect(page).toHaveURL(/\?workspace=shared-e2e-share-src-[\w-]+&shared=1$/);
  await expect(treeRow(page, "README.md")).toBeVisible();
  await expect(treeRow(page, "ünïcödé")).toBeVisible();
  expect(await downloadedFiles(page)).toEqual(hex(FILES));
  expect(consoleErrors).toEqual([]);
});

test("a shared session shows as it was and offers Replay", async ({ page, baseURL }) => {
  const files = fixtureFiles(6);
  const link = await encodeShareLink({ name: "Replay demo", files, session: fixtureSession(3, files) }, `${baseURL}/`);
  await page.goto(link);
  await expect(page).toHaveURL(/workspace=shared-replay-demo-/);
  await page.getByTestId("tab-chat").click();
  await expect(page.getByTestId("chat-transcript")).toContainText("Look through the project and tidy the helpers.");
  await expect(page.getByTestId("chat-transcript")).toContainText("Step 2: looking at");
  await expect(page.getByTestId("share-replay")).toBeVisible();
  await expect(page.getByTestId("share-replay-start")).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId("share-replay-speed").selectOption("0");
  await page.getByTestId("share-replay-start").click();
  // The replay runs in a new session through the scripted provider, with real tools: the grep answers from
  // this workspace's files (the recording's output was different), and the recorded edit is refused
  // because this replay never read the file, as the edit tool refuses it.
  await expect(page.getByTestId("session-picker").locator("option")).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId("chat-transcript")).toContainText("Step 2: looking at src/m2.ts with edit.", { timeout: 30_000 });
  await expect(page.getByTestId("chat-status")).toHaveAttribute("data-status", "idle", { timeout: 30_000 });
  const transcript = page.getByTestId("chat-transcript");
  await expect(transcript).toContainText("const token = input.trim();");
  await expect(transcript).toContainText("You must read file /workspace/src/m2.ts before overwriting it");
  await page.screenshot({ path: "e2e/screenshots/share-replay.png" });
});

test("a share too big for a link goes through the .workbench.json file: picked, and fetched with #from from another origin", async ({
  page,
}) => {
  await openWorkbench(page, freshWorkspace("share-big"), "chat");
  // Random bytes do not compress: 120 KB of them make a link far past the limit.
  const noise = Uint8Array.from({ length: 120_000 }, () => Math.floor(Math.random() * 256));
  await page.getByTestId("upload-zip").setInputFiles({
    name: "big.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(zipSync({ "noise.bin": noise, "note.txt": strToU8("big\n") })),
  });
  await expect(page.getByTestId("notice")).toContainText("Imported 2 files");
  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-too-long")).toContainText("too long to travel as a link");
  const downloading = page.waitForEvent("download");
  await page.getByTestId("share-download").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.workbench\.json$/);
  const path = await download.path();

  await page.getByTestId("share-open-file").setInputFiles(path);
  await expect(page).toHaveURL(/workspace=shared-e2e-share-big-[\w-]+&shared=1/);
  await expect(treeRow(page, "noise.bin")).toBeVisible();
  expect((await downloadedFiles(page))["noise.bin"]).toBe(Buffer.from(noise).toString("hex"));

  // The same file served by another origin (localhost, not 127.0.0.1) with CORS, opened by #from=.
  const { readFile } = await import("node:fs/promises");
  const body = await readFile(path);
  let sawCookie = false;
  const server: Server = createServer((request, response) => {
    sawCookie ||= request.headers.cookie !== undefined;
    response.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    await page.goto(`/#from=${encodeURIComponent(`http://localhost:${port}/demo.workbench.json`)}`);
    await expect(page).toHaveURL(/workspace=shared-e2e-share-big-[\w-]+&shared=1/);
    await expect(treeRow(page, "note.txt")).toBeVisible();
    expect(sawCookie).toBe(false);
  } finally {
    server.close();
  }
});

test("hostile and damaged links are refused with a message, and nothing is written", async ({ page, baseURL }) => {
  const good = await encodeShareLink({ files: { "a.txt": "fine" } }, `${baseURL}/`);
  const packed = (manifest: unknown, body: Uint8Array) => {
    const head = strToU8(JSON.stringify(manifest));
    const out = new Uint8Array(4 + head.length + body.length);
    new DataView(out.buffer).setUint32(0, head.length);
    out.set(head, 4);
    out.set(body, 4 + head.length);
    return `${baseURL}/#share=1.${toBase64Url(deflateSync(out, { level: 9 }))}`;
  };
  const cases: Array<[string, RegExp]> = [
    [good.replace(/.$/, "~"), /not base64url/],
    [good.slice(0, -8), /cut short|damaged|ends too early|length/],
    [packed({ f: [["../../escape.txt", 4]] }, strToU8("evil")), /climbs out/],
    [packed({ f: [["/etc/passwd", 4]] }, strToU8("evil")), /absolute/],
    [packed({ f: [["zeros.bin", 20 * 1024 * 1024, 1]] }, new Uint8Array(20 * 1024 * 1024)), /decompression bomb/],
  ];
  for (const [link, message] of cases) {
    await page.goto("about:blank");
    await page.goto(link);
    const refused = page.getByTestId("share-refused");
    await expect(refused).toContainText("This share link cannot be opened");
    await expect(refused).toContainText(message);
    await expect(refused.getByRole("link", { name: "Open the workbench without it" })).toBeVisible();
  }
  await page.screenshot({ path: "e2e/screenshots/share-refused.png" });
  expect(await sharedDatabases(page)).toEqual([]);
});

test("a custom tool in a link does not run until the visitor trusts the new workspace", async ({ page, baseURL }) => {
  const hello = `import { tool } from "@opencode-ai/plugin"; export default tool({ description: "Greets", args: { name: tool.schema.string() }, async execute({ name }) { return "hello, " + name; } });`;
  // The visitor trusts their own workspaces; a share never opens in one of them.
  await page.goto(`${baseURL}/?workspace=e2e-own&memory=1`);
  await page.evaluate(() => localStorage.setItem("workbench.trusted-workspaces", JSON.stringify(["default", "e2e-own", "shared-tools"])));
  const link = await encodeShareLink({ name: "tools", files: { ".opencode/tool/hello.ts": hello, "a.txt": "a\n" } }, `${baseURL}/`);
  await page.goto(link);
  await expect(page).toHaveURL(/workspace=shared-tools-[\w-]+&shared=1/);
  await page.getByTestId("tab-tools").click();
  const notice = page.getByTestId("trust-notice");
  await expect(notice).toBeVisible();
  await expect(notice.locator(".trust-files li")).toHaveText([".opencode/tool/hello.ts"]);
  await page.keyboard.press("Control+k");
  await page.getByLabel("Filter tools").fill("hello");
  await expect(page.getByTestId("tool-palette").getByRole("option")).toHaveCount(0);
});
