/**
 * A 4,000-file node_modules in the built page (issue 27): the file tree lists it as one dimmed, closed row
 * (its .gitignore says so, in a git repository, as rg judges it) and reads it only when opened; Find in files
 * finds the project's lines and none of the install's. The longest main-thread task while the folder opens and
 * while the search runs is noted on the test (a figure for the report, not a pass mark).
 */
import { strToU8, zipSync } from "fflate";
import { expect, freshWorkspace, openWorkbench, test } from "./fixtures.js";

const FILES = 4000;

function workspaceZip(): Buffer {
  const files: Record<string, Uint8Array> = {
    ".gitignore": strToU8("node_modules\n"),
    ".git/HEAD": strToU8("ref: refs/heads/main\n"),
    "package.json": strToU8('{ "name": "app", "version": "1.0.0" }\n'),
    "src/app.js": strToU8("const needle = require('pkg-1');\nconsole.log(needle);\n"),
    "README.md": strToU8("Find the needle in the project.\n"),
  };
  for (let i = 0; i < FILES; i++)
    files[`node_modules/pkg-${Math.floor(i / 40)}/lib/file-${i % 40}.js`] = strToU8(
      i % 7 === 0 ? `exports.x = "needle ${i}";\n` : `exports.x = ${i};\n`,
    );
  return Buffer.from(zipSync(files));
}

async function longestTaskDuring(page: import("@playwright/test").Page, act: () => Promise<void>): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __tasks: number[]; __observer: PerformanceObserver };
    w.__tasks = [];
    w.__observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__tasks.push(entry.duration);
    });
    w.__observer.observe({ type: "longtask" });
  });
  await act();
  return page.evaluate(() => {
    const w = window as unknown as { __tasks: number[]; __observer: PerformanceObserver };
    w.__observer.disconnect();
    return Math.round(Math.max(0, ...w.__tasks));
  });
}

test("a 4,000-file node_modules stays one dimmed row in the tree and out of Find in files", async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await openWorkbench(page, freshWorkspace("node-modules-tree"));
  await page.getByTestId("upload-zip").setInputFiles({ name: "app.zip", mimeType: "application/zip", buffer: workspaceZip() });
  await expect(page.getByTestId("notice")).toContainText(`Imported ${FILES + 5} files`, { timeout: 120_000 });

  const tree = page.locator(".file-tree");
  const nodeModules = tree.locator('li[data-path$="/node_modules"]');
  await expect(nodeModules.locator("> .tree-row")).toHaveAttribute("data-ignored", "");
  await expect(nodeModules).toHaveAttribute("aria-expanded", "false");
  await expect(tree.locator('li[data-path$="/src"] > .tree-row')).not.toHaveAttribute("data-ignored");
  // Nothing under node_modules is drawn until it is opened.
  await expect(tree.locator('li[data-path*="/node_modules/"]')).toHaveCount(0);

  const openMs = await longestTaskDuring(page, async () => {
    await nodeModules.locator("> .tree-row .tree-name").click();
    await expect(tree.locator('li[data-path*="/node_modules/pkg-"]')).toHaveCount(100);
  });
  // Inside an ignored folder everything is ignored too.
  await expect(tree.locator('li[data-path$="/node_modules/pkg-42"] > .tree-row')).toHaveAttribute("data-ignored", "");
  await page.locator(".file-tree").screenshot({ path: "e2e/screenshots/node-modules-tree.png" });

  const panel = page.getByRole("search");
  const searchMs = await longestTaskDuring(page, async () => {
    await panel.getByLabel("Pattern (ripgrep regex)").fill("needle");
    await panel.getByRole("button", { name: "Find" }).click();
    await expect(page.getByTestId("search-summary")).toContainText("3 lines in 2 files", { timeout: 60_000 });
  });
  await expect(page.getByTestId("search-hits")).not.toContainText("node_modules");
  test
    .info()
    .annotations.push({ type: "longest main-thread task (ms)", description: `opening node_modules ${openMs}, Find in files ${searchMs}` });
  console.log(`longest main-thread task: opening node_modules ${openMs} ms, Find in files ${searchMs} ms`);
  expect(consoleErrors).toEqual([]);
});
