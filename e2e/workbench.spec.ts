import { readFile } from "node:fs/promises";
import { expect, openWorkbench, runInTerminal, screenLines, terminal, test, waitForIdle } from "./fixtures.js";

// Each test gets a workspace of its own, so saved files from one never leak into another.
const fresh = (extra = "") => `?workspace=e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}${extra}`;

test("the page loads offline with no console errors and says which runtime is active", async ({ page, consoleErrors }) => {
  await openWorkbench(page, fresh());
  await expect(page.getByTestId("runtime-status")).toHaveAttribute("data-kind", "embedded");
  await expect(page.getByTestId("runtime-status")).toContainText("embedded");
  await runInTerminal(page, "echo ready");
  await expect(terminal(page)).toContainText("ready");
  expect(consoleErrors).toEqual([]);
});

test("the terminal runs a command line, and the file it makes appears in the tree and survives a reload", async ({ page }) => {
  const query = fresh();
  await openWorkbench(page, query);
  await runInTerminal(page, "echo hello > a.txt && cat a.txt");
  await expect(terminal(page)).toContainText(/cat a\.txt\s*hello/);
  const tree = page.getByRole("navigation", { name: "Workspace files" });
  await expect(tree.getByText("a.txt", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await expect(tree.getByText("a.txt", { exact: true })).toBeVisible();
  await runInTerminal(page, "cat a.txt");
  await expect(terminal(page)).toContainText(/cat a\.txt\s*hello/);
});

test("Ctrl-C stops a running sleep 30 and gives the prompt back", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "sleep 30; echo should-not-print");
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  await page.waitForTimeout(300);
  await page.keyboard.press("Control+C");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("^C");
  await runInTerminal(page, "echo after-interrupt");
  await expect.poll(() => screenLines(page)).toContain("after-interrupt");
  expect(await screenLines(page)).not.toContain("should-not-print");
});

test("cwd and exported variables carry from one command to the next", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "mkdir -p proj/src && cd proj && export GREETING=hi-there");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("~/proj$");
  await runInTerminal(page, 'pwd; echo "$GREETING"');
  await expect(terminal(page)).toContainText(/\/workspace\/proj\s*hi-there/);
});

test("line editing and history: arrows, Home, Ctrl-U and the up key", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "echo first-command");
  await expect.poll(() => screenLines(page)).toContain("first-command");
  // Type "cho edited", go Home, insert "e": "echo edited".
  await page.keyboard.type("cho edited");
  await page.keyboard.press("Home");
  await page.keyboard.type("e");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await expect.poll(() => screenLines(page)).toContain("edited");
  // Garbage killed with Ctrl-U, then Up twice recalls the first command.
  await page.keyboard.type("garbage");
  await page.keyboard.press("Control+U");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await screenLines(page)).filter((line) => line === "first-command").length).toBe(2);
});

test("a file uploaded comes back byte for byte when downloaded", async ({ page }) => {
  await openWorkbench(page, fresh());
  const content = Buffer.from("line one\nline two ✓\n\u0000\u00ff binary tail", "utf8");
  await page.getByTestId("upload-files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: content });
  await expect(page.getByTestId("notice")).toContainText("Imported 1 file");
  await runInTerminal(page, "wc -c notes.txt");
  await expect(terminal(page)).toContainText(`${content.length} notes.txt`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download notes.txt" }).click()]);
  expect(download.suggestedFilename()).toBe("notes.txt");
  expect(Buffer.compare(await readFile((await download.path())!), content)).toBe(0);
});

test("a .zip imports into the workspace and the workspace downloads as a .zip", async ({ page }) => {
  await openWorkbench(page, fresh());
  const { zipSync, strToU8, unzipSync } = await import("fflate");
  const archive = zipSync({ "pkg/readme.md": strToU8("# hi\n"), "pkg/src/index.ts": strToU8("export {};\n") });
  await page.getByTestId("upload-zip").setInputFiles({ name: "pkg.zip", mimeType: "application/zip", buffer: Buffer.from(archive) });
  await expect(page.getByTestId("notice")).toContainText("Imported 2 files");
  await runInTerminal(page, "cat pkg/src/index.ts");
  await expect(terminal(page)).toContainText("export {};");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download .zip" }).click()]);
  const entries = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  expect(new TextDecoder().decode(entries["pkg/readme.md"])).toBe("# hi\n");
});

test("a .zip entry that climbs out of the workspace is refused and nothing is written", async ({ page }) => {
  await openWorkbench(page, fresh());
  const { zipSync, strToU8 } = await import("fflate");
  const archive = zipSync({ "ok.txt": strToU8("fine"), "../../etc/evil.txt": strToU8("nope") });
  await page.getByTestId("upload-zip").setInputFiles({ name: "slip.zip", mimeType: "application/zip", buffer: Buffer.from(archive) });
  await expect(page.getByTestId("notice")).toContainText("would be written outside /workspace");
  await runInTerminal(page, "ls /etc/evil.txt ok.txt");
  await expect(terminal(page)).toContainText("No such file or directory");
  await expect(page.getByRole("navigation", { name: "Workspace files" }).getByText("ok.txt")).toHaveCount(0);
});

test("?runtime=webcontainer falls back to embedded with a visible reason within the boot timeout", async ({ page }) => {
  await openWorkbench(page, fresh("&runtime=webcontainer&bootTimeoutMs=3000"));
  const status = page.getByTestId("runtime-status");
  // The embedded runtime serves while WebContainer boots: the first paint never waits for it.
  await expect(status).toHaveAttribute("data-phase", "booting");
  await runInTerminal(page, "echo usable-while-booting");
  await expect(terminal(page)).toContainText("usable-while-booting");
  await expect(status).toHaveAttribute("data-phase", "fallback", { timeout: 8_000 });
  await expect(status).toContainText("WebContainer unavailable");
  await expect(page.getByTestId("runtime-fallback")).toContainText(/WebContainer unavailable: WebContainer did not boot within 3 s/);
  await expect(status).toHaveAttribute("data-kind", "embedded");
});

test("a second tab on the same workspace is told, and opens read-only", async ({ page, context }) => {
  const query = fresh();
  await openWorkbench(page, query);
  const second = await context.newPage();
  await second.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
  await openWorkbench(second, query);
  await expect(second.getByTestId("read-only-notice")).toContainText("open in another tab");
  await expect(second.getByRole("link", { name: "Open a new workspace" })).toBeVisible();
  await runInTerminal(second, "echo x > from-second-tab.txt");
  await expect(terminal(second)).toContainText("EROFS: read-only workspace");
  await expect(page.getByTestId("read-only-notice")).toHaveCount(0);
});

test("output with markup stays text: no element is made from it", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "touch '<img src=x onerror=alert(1)>.txt'; echo '<b>bold?</b>'");
  await expect(terminal(page)).toContainText("<b>bold?</b>");
  await expect(page.getByRole("navigation", { name: "Workspace files" }).getByText("<img src=x onerror=alert(1)>.txt")).toBeVisible();
  await expect(page.locator("img")).toHaveCount(0);
  await expect(page.locator(".xterm b")).toHaveCount(0);
});

test("a runaway loop (limits lifted) leaves the page responsive, and Ctrl-C stops it within a second", async ({ page }) => {
  await openWorkbench(page, fresh("&limits=off"));
  await runInTerminal(page, "while true; do :; done");
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  await page.waitForTimeout(500);
  // The loop spins in the shell worker: the page still answers and still reacts to the user.
  expect(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(1))))).toBe(1);
  await page.getByRole("button", { name: "Upload files" }).or(page.getByText("Upload files")).first().hover();
  const stoppedAt = Date.now();
  await page.keyboard.press("Control+C");
  await waitForIdle(page);
  expect(Date.now() - stoppedAt).toBeLessThan(1_000);
  await runInTerminal(page, "echo still-here");
  await expect.poll(() => screenLines(page)).toContain("still-here");
});

test("a folder upload keeps its tree", async ({ page }) => {
  const { mkdtemp, mkdir, writeFile } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const folder = join(await mkdtemp(join(tmpdir(), "wb-upload-")), "site");
  await mkdir(join(folder, "css"), { recursive: true });
  await writeFile(join(folder, "index.html"), "<h1>hi</h1>\n");
  await writeFile(join(folder, "css", "main.css"), "h1 { color: red; }\n");
  await openWorkbench(page, fresh());
  await page.getByTestId("upload-folder").setInputFiles(folder);
  await expect(page.getByTestId("notice")).toContainText("Imported 2 files");
  await runInTerminal(page, "cat site/css/main.css");
  await expect.poll(() => screenLines(page)).toContain("h1 { color: red; }");
  const tree = page.getByRole("navigation", { name: "Workspace files" });
  await tree.getByRole("button", { name: "site" }).click();
  await tree.getByRole("button", { name: "css" }).click();
  await expect(tree.getByText("main.css", { exact: true })).toBeVisible();
});

test("without IndexedDB the workspace runs from memory and the page says so", async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true }));
  await openWorkbench(page, fresh());
  await expect(page.getByTestId("storage-notice")).toContainText("IndexedDB is not available");
  await expect(page.getByTestId("storage-notice")).toContainText("gone after a reload");
  await runInTerminal(page, "echo works > m.txt && cat m.txt");
  await expect.poll(() => screenLines(page)).toContain("works");
});

test("a command line longer than the terminal is wide is edited and run whole", async ({ page }) => {
  await openWorkbench(page, fresh());
  const long = `echo ${"word ".repeat(40)}end`;
  await page.locator(".xterm").click();
  await page.keyboard.type(long);
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.type(" start");
  await page.keyboard.press("Enter");
  await waitForIdle(page);
  const lines = await screenLines(page);
  // The prompt was drawn once for the line, however many rows it wrapped over.
  expect(lines.filter((line) => line.startsWith("user@workbench:~$ echo")).length).toBe(1);
  // Rows are compared without spaces: a wrap may fall on one, and rows are read trimmed.
  expect(lines.join("").replace(/ /g, "")).toContain(`start${"word".repeat(40)}end`);
});
