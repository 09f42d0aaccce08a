/**
 * Issue 30, item 12: the files column as a person uses it. + File takes a path, names sort with their
 * numbers, Delete asks in the tree, tabs of files deleted meanwhile do not come back after a reload,
 * the column can be widened, and Find in files marks each match.
 */
import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const row = (page: Page, name: string) => page.locator(`.file-tree li[data-path="/workspace/${name}"]`);
const tab = (page: Page, name: string) => page.locator(`[data-testid=file-tab][data-path="/workspace/${name}"]`);

async function shell(page: Page, command: string): Promise<void> {
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, command);
  await waitForIdle(page);
}

async function setTheme(page: Page, theme: "dark" | "light"): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme", theme);
}

test("+ File makes docs/notes/today.md with its folders, names sort with their numbers, and Delete asks in the tree", async ({
  page,
  consoleErrors,
}) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openWorkbench(page, freshWorkspace("files-more"));
  await page.getByTestId("tree-new-file").click();
  await page.getByTestId("tree-form-input").fill("docs/notes/today.md");
  await page.getByTestId("tree-form-input").press("Enter");
  await expect(tab(page, "docs/notes/today.md")).toBeVisible();
  await expect(row(page, "docs")).toHaveAttribute("aria-expanded", "true");
  await expect(row(page, "docs/notes/today.md")).toBeVisible();
  await shell(page, "test -f docs/notes/today.md && echo made-it");
  await expect(page.locator(".xterm-rows")).toContainText("made-it");

  await shell(page, "mkdir mods && touch mods/mod1 mods/mod10 mods/mod100 mods/mod2 mods/mod20");
  await row(page, "mods").locator("> .tree-row > button.tree-name").click();
  await expect(row(page, "mods/mod100")).toBeVisible();
  const names = await page.locator('.file-tree li[data-path^="/workspace/mods/"] > .tree-row > button.tree-name').allInnerTexts();
  expect(names.map((name) => name.trim())).toEqual(["mod1", "mod2", "mod10", "mod20", "mod100"]);

  await row(page, "mods/mod2").locator("> .tree-row > button.tree-name").focus();
  await page.keyboard.press("Delete");
  const confirm = page.getByTestId("tree-delete-confirm");
  await expect(confirm).toContainText("Delete mods/mod2? This cannot be undone.");
  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/files-delete-1400-${theme}.png` });
  }
  await confirm.getByTestId("tree-delete-yes").click();
  await expect(row(page, "mods/mod2")).toHaveCount(0);
  expect(dialogs).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("tabs of files deleted from the terminal do not come back after a reload", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("files-tabs", false));
  await shell(page, "echo keep > keep.txt && echo gone > gone.txt");
  for (const name of ["keep.txt", "gone.txt"]) await row(page, name).locator("> .tree-row > button.tree-name").click();
  await expect(tab(page, "gone.txt")).toBeVisible();
  await shell(page, "rm gone.txt");
  await expect(row(page, "gone.txt")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await expect(tab(page, "keep.txt")).toBeVisible();
  await expect(tab(page, "gone.txt")).toHaveCount(0);
});

test("the files column widens by its edge (mouse and keys) and keeps the width; Find in files marks the match", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkbench(page, freshWorkspace("files-wide"));
  const sidebar = page.locator(".sidebar");
  const before = (await sidebar.boundingBox())!.width;
  const handle = page.getByTestId("sidebar-resizer");
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + 200, box.y + 200, { steps: 5 });
  await page.mouse.up();
  const wider = (await sidebar.boundingBox())!.width;
  expect(wider).toBeGreaterThan(before + 150);
  await handle.focus();
  await page.keyboard.press("ArrowLeft");
  await expect.poll(async () => (await sidebar.boundingBox())!.width).toBeLessThan(wider - 10);

  await shell(
    page,
    "mkdir -p src/deeply/nested/folder && echo 'const answer = findTheNeedle(42);' > src/deeply/nested/folder/long-file-name.ts",
  );
  const panel = page.getByRole("search");
  await panel.getByLabel("Pattern (ripgrep regex)").fill("find\\w+");
  await panel.getByRole("button", { name: "Find" }).click();
  const hit = page.getByTestId("search-hit").first();
  await expect(hit).toContainText("src/deeply/nested/folder/long-file-name.ts:1");
  await expect(hit.getByTestId("search-hit-match")).toHaveText("findTheNeedle");
  await expect(hit.locator(".hit-text")).toHaveText("const answer = findTheNeedle(42);");
  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    await page.screenshot({ path: `e2e/screenshots/files-wide-1400-${theme}.png` });
  }
  // The width holds after a reload.
  const kept = (await sidebar.boundingBox())!.width;
  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  expect(Math.abs((await page.locator(".sidebar").boundingBox())!.width - kept)).toBeLessThan(2);
});
