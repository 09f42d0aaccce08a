import { expect, freshWorkspace, openWorkbench, runInTerminal, terminal, test, waitForIdle } from "./fixtures.js";

const fresh = () => freshWorkspace("search", false);

async function find(page: import("@playwright/test").Page, pattern: string, glob = "") {
  const panel = page.getByRole("search");
  await panel.getByLabel("Pattern (ripgrep regex)").fill(pattern);
  await panel.getByLabel("Only files matching").fill(glob);
  await panel.getByRole("button", { name: "Find" }).click();
}

test("find in files searches the workspace in the search worker and shows every hit as text", async ({ page, consoleErrors }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(
    page,
    "mkdir -p src && echo 'const needle = 1;' > src/a.ts && echo '<b>NEEDLE</b> here' > '<img src=x onerror=alert(1)>.html' && echo hidden needle > .env",
  );
  await waitForIdle(page);
  await find(page, "needle");
  const summary = page.getByTestId("search-summary");
  await expect(summary).toContainText("1 lines in 1 files");
  const hits = page.getByTestId("search-hits");
  await expect(hits).toContainText("src/a.ts:1");
  await expect(hits).toContainText("const needle = 1;");

  // ripgrep's rules: hidden files are skipped unless asked; -i finds the upper-case one.
  await page.getByLabel("Ignore case").check();
  await find(page, "needle");
  await expect(summary).toContainText("2 lines in 2 files");
  await expect(hits.getByText("<img src=x onerror=alert(1)>.html:1")).toBeVisible();
  await expect(hits.getByText("<b>NEEDLE</b> here")).toBeVisible();
  await expect(page.locator(".search-hits img, .search-hits b")).toHaveCount(0);

  await find(page, "needle", "*.ts");
  await expect(summary).toContainText("1 lines in 1 files");

  // A change made after a search shows in the next one (the worker's cache is told).
  await runInTerminal(page, "echo 'let needle2 = 2;' >> src/a.ts && rm '<img src=x onerror=alert(1)>.html'");
  await waitForIdle(page);
  await find(page, "needle");
  await expect(summary).toContainText("2 lines in 1 files");
  await expect(hits).toContainText("src/a.ts:2");
  expect(consoleErrors).toEqual([]);
});

test("a bad pattern gets ripgrep's error, and look-around is refused clearly", async ({ page }) => {
  await openWorkbench(page, fresh());
  await find(page, "a(");
  await expect(page.getByTestId("search-error")).toContainText("regex parse error");
  await find(page, "a(?=b)");
  await expect(page.getByTestId("search-error")).toContainText("look-around");
});

test("a search over thousands of files leaves the page responsive and can be stopped", async ({ page }) => {
  // In memory: importing thousands of files into IndexedDB alone takes most of a minute.
  await openWorkbench(page, `${fresh()}&memory=1`);
  const { zipSync, strToU8 } = await import("fflate");
  const files: Record<string, Uint8Array> = {};
  const body = strToU8("some text without the word\n".repeat(200) + "needle at the end\n");
  for (let i = 0; i < 3000; i++) files[`big/d${i % 30}/f${i}.txt`] = body;
  await page.getByTestId("upload-zip").setInputFiles({ name: "big.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(files)) });
  await expect(page.getByTestId("notice")).toContainText("Imported 3000 files", { timeout: 60_000 });

  await find(page, "needle");
  const summary = page.getByTestId("search-summary");
  await expect(summary).toContainText("Searching");
  // While it runs the page still paints and still takes typing.
  expect(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(1))))).toBe(1);
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(summary).toContainText("Stopped");

  await find(page, "needle");
  await expect(summary).toContainText("3000 lines in 3000 files (showing the first 200)", { timeout: 60_000 });
  await page.screenshot({ path: "e2e/screenshots/search-panel.png" });
  await expect(page.getByTestId("search-hits").locator("li")).toHaveCount(200);
  // A summary that wraps keeps its own lines: the list below starts under it, not on top of it.
  const summaryBox = (await summary.boundingBox())!;
  const listBox = (await page.getByTestId("search-hits").boundingBox())!;
  const textHeight = await summary.evaluate((element) => element.scrollHeight);
  expect(summaryBox.height).toBeGreaterThanOrEqual(textHeight);
  expect(listBox.y).toBeGreaterThanOrEqual(summaryBox.y + summaryBox.height);
  await runInTerminal(page, "echo after-search");
  await expect(terminal(page)).toContainText("after-search");
});
