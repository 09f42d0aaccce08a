/**
 * Issue 17, the desk a new user meets: who asks for a permission, a file tree that remembers and acts,
 * Find in files that leads to the line, a reload that keeps the desk, a read-only tab that leaves
 * nothing behind, and a first visit that says what to do. Each test is one user's story.
 */
import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const SHOTS = "test-results/first-hour-desk";

/** Light and dark, as the page is now; the caller sets the width. */
async function shoot(page: Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    const toggle = page.getByTestId("theme-toggle");
    if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
    await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png` });
  }
}

async function find(page: Page, pattern: string) {
  const panel = page.getByRole("search");
  await panel.getByLabel("Pattern (ripgrep regex)").fill(pattern);
  await panel.getByRole("button", { name: "Find" }).click();
}

test("6. a Find in files hit opens the file at its line with the match highlighted, and a long hit does not widen a phone's page", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("desk-find"));
  await runInTerminal(page, "seq 1 150 > long.txt && echo 'the needle is here' >> long.txt && seq 1 80 >> long.txt");
  await waitForIdle(page);
  await find(page, "needle");
  const hit = page.getByTestId("search-hit").first();
  await expect(hit).toContainText("long.txt:151");
  await hit.click();
  const editor = page.locator('[data-testid=file-editor][data-path$="/long.txt"]');
  await expect(editor).toBeVisible();
  const match = editor.getByTestId("revealed-match");
  await expect(match).toHaveText("needle");
  await expect(match).toBeInViewport();
  await expect(editor.locator(".cm-lineNumbers .cm-activeLineGutter")).toHaveText("151");
  await shoot(page, "find-opened");

  // On a phone, a hit far longer than the screen is clipped, not scrolled sideways.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, `echo "${"x".repeat(400)} needle2 ${"y".repeat(400)}" > wide.txt`);
  await waitForIdle(page);
  await find(page, "needle2");
  await expect(page.getByTestId("search-hit")).toContainText("wide.txt:1");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId("search-hit").scrollIntoViewIfNeeded();
  await shoot(page, "find-390");
});

test("8. a read-only second tab, opened and closed three times, leaves no empty session in the first tab's list", async ({ page, context }) => {
  const query = freshWorkspace("desk-ro", false);
  await openWorkbench(page, query);
  const picker = page.getByTestId("session-picker");
  await expect(picker.locator("option")).toHaveCount(1);
  for (let i = 0; i < 3; i++) {
    const second = await context.newPage();
    await second.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
    await openWorkbench(second, query);
    await expect(second.getByTestId("read-only-notice")).toContainText("open in another tab");
    // The second tab lists the first tab's session and its own, which is not saved unless it is used.
    await expect(second.getByTestId("session-picker").locator("option")).toHaveCount(2);
    await second.close();
  }
  await page.reload();
  await expect(page.getByTestId("session-picker").locator("option")).toHaveCount(1);
});
