/**
 * Issue 17, the desk a new user meets: who asks for a permission, a file tree that remembers and acts,
 * Find in files that leads to the line, a reload that keeps the desk, a read-only tab that leaves
 * nothing behind, and a first visit that says what to do. Each test is one user's story.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";

const SHOTS = "e2e/screenshots/first-hour-desk";

/** Light and dark, as the page is now; the caller sets the width. */
async function shoot(page: Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    const toggle = page.getByTestId("theme-toggle");
    if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
    await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png` });
  }
}

const row = (page: Page, name: string) => page.locator(`.file-tree li[data-path="/workspace/${name}"]`);
const treeName = (page: Page, name: string) => row(page, name).locator("> .tree-row > button.tree-name");

async function shell(page: Page, command: string): Promise<void> {
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, command);
  await waitForIdle(page);
}

/** Serious or critical axe violations inside `selector`, one line each. */
async function axeProblems(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(selector).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(" ")}`));
}

async function find(page: Page, pattern: string) {
  const panel = page.getByRole("search");
  await panel.getByLabel("Pattern (ripgrep regex)").fill(pattern);
  await panel.getByRole("button", { name: "Find" }).click();
}

test("6. a Find in files hit opens the file at its line with the match highlighted, and a long hit does not widen a phone's page", async ({
  page,
}) => {
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
  // One pane at a time on a phone: the terminal, then the files for the search.
  await page.getByTestId("pane-switcher").getByRole("button", { name: "Terminal" }).click();
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, `echo "${"x".repeat(400)} needle2 ${"y".repeat(400)}" > wide.txt`);
  await waitForIdle(page);
  await page.getByTestId("pane-switcher").getByRole("button", { name: "Files" }).click();
  await find(page, "needle2");
  await expect(page.getByTestId("search-hit")).toContainText("wide.txt:1");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId("search-hit").scrollIntoViewIfNeeded();
  await shoot(page, "find-390");
});

test("8. a read-only second tab, opened and closed three times, leaves no empty session in the first tab's list", async ({
  page,
  context,
}) => {
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

test("5. the tree keeps open folders across changes and a reload", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("desk-tree", false));
  await shell(page, "mkdir -p src/lib docs && echo a > src/a.ts && echo b > src/lib/b.ts");
  await treeName(page, "src").click();
  await treeName(page, "src/lib").click();
  await expect(row(page, "src/lib/b.ts")).toBeVisible();
  // A file appears beside src, and another inside it: both folders stay open.
  await shell(page, "echo c > top.txt && echo d > src/d.ts && echo e > src/lib/e.ts");
  await expect(row(page, "src/d.ts")).toBeVisible();
  await expect(row(page, "src/lib/e.ts")).toBeVisible();
  await expect(row(page, "top.txt")).toBeVisible();
  await expect(row(page, "src")).toHaveAttribute("aria-expanded", "true");
  await expect(row(page, "src/lib")).toHaveAttribute("aria-expanded", "true");
  await page.reload();
  await expect(row(page, "src/lib/e.ts")).toBeVisible();
  await expect(row(page, "docs")).toHaveAttribute("aria-expanded", "false");
});

test("5. new file, new folder, rename, move and delete from the menu and the keys, with names checked", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("desk-actions"));
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  // New file at the top: it opens in the editor.
  await page.getByTestId("tree-new-file").click();
  await page.getByTestId("tree-form-input").fill("notes.md");
  await page.getByTestId("tree-form-input").press("Enter");
  await expect(page.locator('[data-testid=file-editor][data-path="/workspace/notes.md"]')).toBeVisible();
  await expect(row(page, "notes.md")).toBeVisible();

  // New folder, then a file inside it from the folder's context menu (right click).
  await page.getByTestId("tree-new-folder").click();
  await page.getByTestId("tree-form-input").fill("src");
  await page.getByTestId("tree-form-input").press("Enter");
  await treeName(page, "src").click({ button: "right" });
  await page
    .getByTestId("tree-menu")
    .getByRole("menuitem", { name: /New file/ })
    .click();
  await page.getByTestId("tree-form-input").fill("app.ts");
  await page.getByTestId("tree-form-input").press("Enter");
  await expect(row(page, "src/app.ts")).toBeVisible();
  await expect(row(page, "src")).toHaveAttribute("aria-expanded", "true");

  // F2 renames; a name with a slash, or "..", is refused with a reason and nothing changes.
  await treeName(page, "notes.md").focus();
  await page.keyboard.press("F2");
  const input = page.getByTestId("tree-form-input");
  await expect(input).toHaveValue("notes.md");
  await input.fill("../escape.md");
  await input.press("Enter");
  await expect(page.getByTestId("tree-form-error")).toContainText('contains "/"');
  await expect(input).toBeFocused();
  await input.fill("..");
  await input.press("Enter");
  await expect(page.getByTestId("tree-form-error")).toContainText("pick another name");
  await shoot(page, "tree-rename-refused");
  await input.fill("readme.md");
  await input.press("Enter");
  await expect(row(page, "readme.md")).toBeVisible();
  await expect(row(page, "notes.md")).toHaveCount(0);
  // The open tab followed the rename.
  await expect(page.locator('[data-testid=file-tab][data-path="/workspace/readme.md"]')).toBeVisible();

  // A rename onto a taken name asks first.
  await shell(page, "echo old > other.md");
  await treeName(page, "other.md").focus();
  await page.keyboard.press("F2");
  await page.getByTestId("tree-form-input").fill("readme.md");
  await page.getByTestId("tree-form-input").press("Enter");
  await expect.poll(() => dialogs.at(-1)).toContain("readme.md already exists. Replace it?");
  await expect(row(page, "other.md")).toHaveCount(0);

  // Shift+F10 opens the menu from the keyboard; Move to… puts the file into src.
  await treeName(page, "readme.md").focus();
  await page.keyboard.press("Shift+F10");
  await expect(page.getByTestId("tree-menu")).toBeVisible();
  await expect(page.getByRole("menuitem").first()).toBeFocused();
  await page.getByRole("menuitem", { name: /Move to/ }).click();
  await page.getByTestId("tree-form-input").fill("src");
  await page.getByTestId("tree-form-input").press("Enter");
  await expect(row(page, "src/readme.md")).toBeVisible();
  await shoot(page, "tree-actions");

  // Delete asks, then removes through the same file operations: the terminal no longer sees it.
  await treeName(page, "src/app.ts").focus();
  await page.keyboard.press("Delete");
  // Asked in the tree, not by the browser's confirm(): Cancel has the focus, Escape keeps the file.
  const confirm = page.getByTestId("tree-delete-confirm");
  await expect(confirm).toContainText("Delete src/app.ts? This cannot be undone.");
  await expect(confirm.getByTestId("tree-delete-no")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(row(page, "src/app.ts")).toBeVisible();
  await treeName(page, "src/app.ts").focus();
  await page.keyboard.press("Delete");
  await confirm.getByTestId("tree-delete-yes").click();
  await expect(row(page, "src/app.ts")).toHaveCount(0);
  expect(dialogs.filter((message) => message.startsWith("Delete"))).toEqual([]);
  await shell(page, "ls src; cat src/readme.md");
  await expect(page.locator(".xterm-rows")).toContainText("readme.md");
  await expect(page.locator(".xterm-rows")).toContainText("old");

  // The menu at 390 px, light and dark (a click elsewhere, as on the theme button, closes it).
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByTestId("pane-switcher").getByRole("button", { name: "Files" }).click();
  for (const theme of ["light", "dark"] as const) {
    const toggle = page.getByTestId("theme-toggle");
    if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
    await treeName(page, "src").click({ button: "right" });
    await expect(page.getByTestId("tree-menu")).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/tree-menu-390-${theme}.png` });
    expect(await axeProblems(page, ".file-tree")).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("tree-menu")).toHaveCount(0);
    await expect(treeName(page, "src")).toBeFocused();
  }
});

test("5. files dragged from the desktop onto a folder land in it; a row dragged onto a folder moves there", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("desk-drop"));
  await shell(page, "mkdir -p inbox other && echo keep > inbox/kept.txt");
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["hello from the desktop\n"], "hello.txt", { type: "text/plain" }));
    transfer.items.add(new File(["second"], "second.txt"));
    return transfer;
  });
  const target = row(page, "inbox").locator("> .tree-row");
  await target.dispatchEvent("dragover", { dataTransfer: dropped });
  await expect(row(page, "inbox")).toHaveClass(/drop-target/);
  await target.dispatchEvent("drop", { dataTransfer: dropped });
  await expect(row(page, "inbox/hello.txt")).toBeVisible();
  await expect(row(page, "inbox/second.txt")).toBeVisible();
  await shell(page, "cat inbox/hello.txt");
  await expect(page.locator(".xterm-rows")).toContainText("hello from the desktop");

  // Dragging a row onto another folder moves it.
  await treeName(page, "inbox/second.txt").dragTo(row(page, "other").locator("> .tree-row"));
  await expect(row(page, "other/second.txt")).toBeAttached();
  await expect(row(page, "inbox/second.txt")).toHaveCount(0);
});

test("4. with three prompts queued, each says which call asks, in the order of the calls, and links to its card and back", async ({
  page,
}) => {
  await openWorkbench(page, freshWorkspace("desk-ask"));
  await shell(page, `mkdir -p /tmp/outside && echo secret > /tmp/outside/x.txt && echo '{"permission":{"bash":"ask"}}' > opencode.json`);
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await runTool(page, "bash", { command: "echo one", description: "Says one" });
  await runTool(page, "read", { filePath: "/tmp/outside/x.txt" });
  await runTool(page, "bash", { command: "echo three", description: "Says three" });
  const prompts = page.getByTestId("permission-prompt");
  await expect(prompts).toHaveCount(3);
  // The queue is in the order of the calls, and each prompt names its call: tool, title, input.
  await expect(prompts.nth(0).getByTestId("prompt-asker")).toContainText("Asked by bash");
  await expect(prompts.nth(0).getByTestId("prompt-title")).toHaveText("Says one");
  await expect(prompts.nth(1).getByTestId("prompt-asker")).toContainText("Asked by read");
  await expect(prompts.nth(1).getByTestId("prompt-title")).toHaveText("/tmp/outside/x.txt");
  await expect(prompts.nth(1).getByTestId("prompt-input")).toHaveText("filePath: /tmp/outside/x.txt");
  await expect(prompts.nth(1).getByTestId("prompt-folder")).toHaveText("/tmp/outside");
  await expect(prompts.nth(2).getByTestId("prompt-title")).toHaveText("Says three");
  for (const [index, text] of [
    [0, "1 of 3"],
    [1, "2 of 3"],
    [2, "3 of 3"],
  ] as const)
    await expect(prompts.nth(index)).toContainText(text);

  // The waiting cards have a title and show their input unfolded.
  const cards = page.getByTestId("call-card");
  await expect(cards.nth(1).locator(".call-title")).toHaveText("/tmp/outside/x.txt");
  await expect(cards.nth(1).getByTestId("call-input")).toBeVisible();
  await expect(cards.nth(1).getByTestId("call-input")).toContainText("/tmp/outside/x.txt");

  // Prompt -> card, and card -> prompt.
  await prompts.nth(1).getByTestId("prompt-show-call").click();
  await expect(cards.nth(1)).toBeFocused();
  await expect(cards.nth(1)).toHaveClass(/jumped-to/);
  await cards.nth(2).getByTestId("card-show-prompt").click();
  await expect(prompts.nth(2)).toBeFocused();
  await shoot(page, "prompts-queued");
  expect(await axeProblems(page, "[data-testid=prompt-queue]")).toEqual([]);
  await page.setViewportSize({ width: 390, height: 800 });
  await prompts.nth(1).scrollIntoViewIfNeeded();
  await shoot(page, "prompts-390");

  await prompts.nth(1).getByRole("button", { name: "Allow once" }).click();
  await expect(cards.nth(1)).toHaveAttribute("data-state", "completed");
  await expect(cards.nth(1).getByTestId("call-input")).toBeHidden();
  await expect(prompts).toHaveCount(2);
  await expect(prompts.nth(1)).toContainText("2 of 2");
});

test("12. a first visit says what this is and what to do first, opens a sample project in one click, and stays away once dismissed (a blank workspace aside)", async ({
  page,
}) => {
  await page.goto(`/${freshWorkspace("desk-welcome", false)}`);
  const welcome = page.getByTestId("desk-welcome");
  await expect(welcome).toBeVisible();
  await expect(welcome.getByRole("heading")).toContainText("Welcome to Workbench");
  await expect(welcome.getByRole("button", { name: "Add a provider key…" })).toBeVisible();
  await expect(welcome.getByRole("button", { name: "Watch the recorded demo" })).toBeVisible();
  await shoot(page, "welcome");
  for (const theme of ["light", "dark"] as const) {
    const toggle = page.getByTestId("theme-toggle");
    if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
    const results = await new AxeBuilder({ page })
      .include("[data-testid=desk-welcome]")
      .withTags(["wcag2a", "wcag2aa", "wcag21aa"])
      .analyze();
    expect(results.violations.map((violation) => `${theme}: ${violation.id}`)).toEqual([]);
  }

  // The sample project: one click, and its README is open with the folder shown in the tree.
  await welcome.getByRole("button", { name: "Open a sample project" }).click();
  await expect(page.locator('[data-testid=file-editor][data-path="/workspace/sample-project/README.md"] .cm-content')).toContainText(
    "Sample project",
  );
  await expect(row(page, "sample-project/src")).toBeVisible();
  await find(page, "TODO");
  await expect(page.getByTestId("search-hit").first()).toContainText("sample-project/");

  // Add a key opens the chat's key dialog.
  await welcome.getByRole("button", { name: "Add a provider key…" }).click();
  await expect(page.getByTestId("tab-chat")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("dialog")).toBeVisible();
  // The dialog takes the focus on the next frame; Escape is heard from inside it.
  await expect(page.getByRole("dialog").locator(":focus")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 800 });
  await shoot(page, "welcome-390");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Dismissed, it stays gone after a reload of a workspace with files; a new, blank workspace offers the start again.
  await welcome.getByTestId("desk-welcome-dismiss").click();
  await expect(welcome).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await page.getByTestId("pane-switcher").getByRole("button", { name: "Files" }).click();
  await expect(row(page, "sample-project")).toBeVisible();
  await expect(page.getByTestId("desk-welcome")).toHaveCount(0);
  await page.goto(`/${freshWorkspace("desk-welcome-2")}`);
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await expect(page.getByTestId("desk-welcome")).toBeVisible();
});

test("12. the welcome's demo button plays the recorded demo in the chat, with no key", async ({ page }) => {
  await openWorkbench(page, freshWorkspace("desk-demo"), "tools", true);
  await page.getByTestId("desk-welcome-demo").click();
  await expect(page.getByTestId("tab-chat")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("tool-part").first()).toBeVisible({ timeout: 30_000 });
});

test("7. a reload brings back the open tabs (and which is in front), the terminal's lines and the call list's place; a new tab opens at the newest call", async ({
  page,
  context,
}) => {
  const query = freshWorkspace("desk-reload", false);
  await openWorkbench(page, query);
  await shell(page, "echo one > a.txt && echo two > b.txt && echo before-the-reload-marker");
  await treeName(page, "a.txt").click();
  await treeName(page, "b.txt").click();
  await page.locator('[data-testid=file-tab][data-path="/workspace/a.txt"]').click();
  for (let i = 1; i <= 8; i++) await runTool(page, "bash", { command: `seq 1 12; echo call-${i}`, description: `Call ${i}` });
  const cards = page.getByTestId("call-card");
  await expect(cards).toHaveCount(8);
  await expect(cards.nth(7)).toHaveAttribute("data-state", "completed");
  // Scrolled to the first call before the reload.
  // As a person does it: the wheel over the list, which also ends the list's own settling after new calls.
  await page.getByTestId("transcript").hover();
  await page.mouse.wheel(0, -10_000);
  await expect(page.getByTestId("call-card").first()).toBeInViewport();
  await page.waitForTimeout(400); // the place is saved a moment after scrolling stops

  await page.reload();
  await expect(page.locator("[data-testid=file-tab]")).toHaveText(["a.txt", "b.txt"]);
  await expect(page.locator('[data-testid=file-tab][data-path="/workspace/a.txt"]')).toHaveAttribute("aria-selected", "true");
  await expect(page.locator('[data-testid=file-editor][data-path="/workspace/a.txt"] .cm-content')).toHaveText("one");
  await expect(page.getByTestId("call-card").nth(7)).toBeAttached();
  await expect(page.getByTestId("call-card").first()).toBeInViewport();
  await expect(page.getByTestId("call-card").nth(7)).not.toBeInViewport();
  await page.getByTestId("tab-terminal").click();
  await expect(page.locator(".xterm-rows")).toContainText("before-the-reload-marker");
  await expect(page.locator(".xterm-rows")).toContainText("restored after the reload");
  await shoot(page, "reload-restored");

  // The same workspace opened afresh in a new tab (the old one closed) shows the newest call.
  const second = await context.newPage();
  await second.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
  await page.close();
  await openWorkbench(second, query);
  await expect(second.getByTestId("read-only-notice")).toHaveCount(0);
  await expect(second.getByTestId("call-card").nth(7)).toBeInViewport();
});
