import type { Page } from "@playwright/test";
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";

const fresh = () => freshWorkspace("tools");

const card = callCard;

async function newSessionWithEditAsking(page: Page) {
  await runInTerminal(page, `echo '{"permission":{"edit":"ask"}}' > opencode.json && printf 'alpha\\nbeta\\n' > notes.txt`);
  await waitForIdle(page);
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await runTool(page, "read", { filePath: "notes.txt" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
}

test("read from the palette shows the file's lines in its card", async ({ page, consoleErrors }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "printf 'first line\\nsecond line\\n' > hello.txt");
  await waitForIdle(page);
  await runTool(page, "read", { filePath: "hello.txt" });
  const first = card(page, 0);
  await expect(first).toHaveAttribute("data-state", "completed");
  await expect(first.getByTestId("call-output")).toContainText("first line");
  await expect(first.getByTestId("call-output")).toContainText("second line");
  await page.screenshot({ path: "e2e/screenshots/tools-read.png" });
  expect(consoleErrors).toEqual([]);
});

test("the palette filters as you type and shows the schema's errors before running", async ({ page }) => {
  await openWorkbench(page, fresh());
  await page.getByTestId("open-palette").click();
  const palette = page.getByTestId("tool-palette");
  await palette.getByLabel("Filter tools").fill("gre");
  await expect(palette.getByRole("option")).toHaveText([/grep/]);
  await palette.getByLabel("Filter tools").fill("bash");
  await palette.getByLabel("Filter tools").press("Enter");
  await palette.locator("#tool-field-timeout").fill("soon");
  await palette.locator("#tool-field-timeout").press("Enter");
  await expect(palette.getByTestId("field-error-timeout")).toContainText("not a number");
  await expect(palette.getByTestId("field-error-command")).toHaveText("Required: fill this in.");
  await page.screenshot({ path: "e2e/screenshots/tools-palette-errors.png" });
  await expect(page.getByTestId("call-card")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();
});

test("the palette works from the keyboard alone: arrows pick a tool, Tab stays inside, Escape gives focus back", async ({ page }) => {
  await openWorkbench(page, fresh());
  // The tools load after the first paint; the button is enabled once they have.
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await page.getByTestId("open-palette").focus();
  await page.keyboard.press("Control+k");
  const palette = page.getByTestId("tool-palette");
  await expect(palette.getByLabel("Filter tools")).toBeFocused();
  await page.keyboard.type("r");
  const options = palette.getByRole("option");
  const names = await options.locator(".palette-id").allInnerTexts();
  expect(names.length).toBeGreaterThan(1);
  expect(names.every((name) => name.includes("r"))).toBe(true);
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await page.screenshot({ path: "e2e/screenshots/tools-palette-list.png" });
  await page.keyboard.press("Enter");
  await expect(palette.getByTestId("tool-form")).toContainText(names[1]!);
  for (let i = 0; i < 12; i++) await page.keyboard.press("Tab");
  expect(await palette.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();
  await expect(page.getByTestId("open-palette")).toBeFocused();
});

test("grep from the palette lists the matches", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "mkdir -p src && echo 'const needle = 1;' > src/a.ts && echo 'nothing here' > src/b.ts");
  await waitForIdle(page);
  await runTool(page, "grep", { pattern: "needle" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 0).getByTestId("call-output")).toContainText("src/a.ts");
  await expect(card(page, 0).getByTestId("call-output")).toContainText("const needle = 1;");
  await expect(card(page, 0).getByTestId("call-output")).not.toContainText("b.ts");
});

test("bash from the palette shows its output and exit 0", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runTool(page, "bash", { command: "echo hi", description: "Says hi" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 0).getByTestId("call-output")).toContainText("hi");
  await expect(card(page, 0).getByTestId("call-exit")).toHaveText("exit 0");
  await expect(card(page, 0)).toContainText("Says hi");
});

test("an edit that asks, allowed once, changes the file and the card shows the diff", async ({ page }) => {
  await openWorkbench(page, fresh());
  await newSessionWithEditAsking(page);
  await runTool(page, "edit", { filePath: "notes.txt", oldString: "beta", newString: "gamma" });
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt.getByTestId("prompt-patterns")).toHaveText("notes.txt");
  await expect(prompt.getByTestId("diff")).toContainText("+gamma");
  await expect(card(page, 1)).toHaveAttribute("data-state", "pending permission");
  await page.screenshot({ path: "e2e/screenshots/tools-permission-prompt.png" });
  await prompt.getByRole("button", { name: "Allow once" }).click();
  await expect(card(page, 1)).toHaveAttribute("data-state", "completed");
  const diff = card(page, 1).getByTestId("diff");
  await expect(diff.locator(".diff-del")).toHaveText("-beta");
  await expect(diff.locator(".diff-add")).toHaveText("+gamma");
  await page.screenshot({ path: "e2e/screenshots/tools-edit-diff.png" });
  await runTool(page, "read", { filePath: "notes.txt" });
  await expect(card(page, 2).getByTestId("call-output")).toContainText("gamma");
});

test("Always allow remembers the listed pattern, so the second edit does not ask", async ({ page }) => {
  await openWorkbench(page, fresh());
  await newSessionWithEditAsking(page);
  await runTool(page, "edit", { filePath: "notes.txt", oldString: "alpha", newString: "one" });
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt.getByTestId("allow-always")).toContainText("edit: *");
  await prompt.getByTestId("allow-always").click();
  await expect(card(page, 1)).toHaveAttribute("data-state", "completed");
  await runTool(page, "edit", { filePath: "notes.txt", oldString: "beta", newString: "two" });
  await expect(card(page, 2)).toHaveAttribute("data-state", "completed");
  await expect(page.getByTestId("permission-prompt")).toHaveCount(0);
  await runTool(page, "read", { filePath: "notes.txt" });
  await expect(card(page, 3).getByTestId("call-output")).toContainText("one");
  await expect(card(page, 3).getByTestId("call-output")).toContainText("two");
});

test("a rejected edit leaves the file untouched and its card says so", async ({ page }) => {
  await openWorkbench(page, fresh());
  await newSessionWithEditAsking(page);
  await runTool(page, "edit", { filePath: "notes.txt", oldString: "beta", newString: "gamma" });
  const prompt = page.getByTestId("permission-prompt");
  await prompt.getByLabel("Rejection message").fill("keep beta");
  await prompt.getByRole("button", { name: "Reject" }).click();
  await expect(card(page, 1)).toHaveAttribute("data-state", "error");
  await expect(card(page, 1).getByTestId("call-rejection")).toContainText("Rejected by the user");
  await expect(card(page, 1).getByTestId("call-rejection")).toContainText("keep beta");
  await page.screenshot({ path: "e2e/screenshots/tools-rejected.png" });
  await runTool(page, "read", { filePath: "notes.txt" });
  await expect(card(page, 2).getByTestId("call-output")).toContainText("beta");
});

test("two writes waiting for permission queue visibly and are answered one by one", async ({ page }) => {
  await openWorkbench(page, fresh());
  await newSessionWithEditAsking(page);
  await runTool(page, "write", { filePath: "a.txt", content: "first" });
  await runTool(page, "write", { filePath: "b.txt", content: "second" });
  const prompts = page.getByTestId("permission-prompt");
  await expect(prompts).toHaveCount(2);
  await expect(prompts.nth(0)).toContainText("1 of 2");
  await expect(prompts.nth(1)).toContainText("2 of 2");
  await expect(prompts.nth(0).getByTestId("prompt-patterns")).toHaveText("a.txt");
  await expect(prompts.nth(1).getByTestId("diff")).toContainText("+second");
  await page.screenshot({ path: "e2e/screenshots/tools-prompt-queue.png" });
  await prompts.nth(0).getByRole("button", { name: "Allow once" }).click();
  await expect(prompts).toHaveCount(1);
  await expect(prompts.nth(0)).toContainText("1 of 1");
  await expect(prompts.nth(0).getByTestId("prompt-patterns")).toHaveText("b.txt");
  await prompts.nth(0).getByRole("button", { name: "Allow once" }).click();
  await expect(prompts).toHaveCount(0);
  await expect(card(page, 1)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 2)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 2).getByTestId("diff").locator(".diff-add")).toHaveText("+second");
});

test("prompts show what is at stake: the command for bash, the folder for a path outside the workspace", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(
    page,
    `mkdir -p /tmp/outside && echo secret > /tmp/outside/x.txt && echo '{"permission":{"bash":"ask"}}' > opencode.json`,
  );
  await waitForIdle(page);
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await runTool(page, "bash", { command: "echo '<i>ok</i>' && ls", description: "Lists" });
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt).toContainText("Permission: bash");
  await expect(prompt.getByTestId("prompt-command")).toHaveText("echo '<i>ok</i>' && ls");
  await prompt.getByRole("button", { name: "Allow once" }).click();
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 0).getByTestId("call-output")).toContainText("<i>ok</i>");

  await runTool(page, "read", { filePath: "/tmp/outside/x.txt" });
  await expect(prompt).toContainText("Permission: external_directory");
  await expect(prompt.getByTestId("prompt-folder")).toHaveText("/tmp/outside");
  await page.screenshot({ path: "e2e/screenshots/tools-external-directory.png" });
  await prompt.getByRole("button", { name: "Allow once" }).click();
  await expect(card(page, 1).getByTestId("call-output")).toContainText("secret");
  await expect(page.locator(".tools-pane i")).toHaveCount(0);
});

test("a running sleep 30 stops at the card's Abort button and ends as aborted with the note", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runTool(page, "bash", { command: "echo started; sleep 30", description: "Sleeps" });
  const running = card(page, 0);
  await expect(running).toHaveAttribute("data-state", "running");
  await expect(running.getByTestId("call-live")).toContainText("started");
  await page.screenshot({ path: "e2e/screenshots/tools-running.png" });
  await running.getByRole("button", { name: "Abort" }).click();
  await expect(running).toHaveAttribute("data-state", "aborted");
  await expect(running.getByTestId("call-note")).toHaveText("Stopped: you aborted the command.");
  await expect(running.getByRole("button", { name: "Abort" })).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/tools-aborted.png" });
});

test("a file named like markup is read through the palette as text, never as an element", async ({ page, consoleErrors }) => {
  await openWorkbench(page, fresh());
  const name = "<img src=x onerror=alert(1)>.txt";
  await runInTerminal(page, `echo '<b>bold</b><script>alert(2)</script>' > '${name}'`);
  await waitForIdle(page);
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
  await runTool(page, "read", { filePath: name });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 0).getByTestId("call-output")).toContainText("<b>bold</b><script>alert(2)</script>");
  await expect(card(page, 0).getByTestId("call-input")).toContainText(name);
  await expect(page.locator(".tools-pane img, .tools-pane b, .tools-pane script")).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/tools-xss.png" });
  expect(dialogs).toBe(0);
  expect(consoleErrors).toEqual([]);
});

test("at 1024 px wide the three panes and the palette fit", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openWorkbench(page, fresh());
  await runTool(page, "bash", { command: "echo narrow", description: "Narrow check" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  const box = await page.getByTestId("tools-pane").boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(1024);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await page.screenshot({ path: "e2e/screenshots/tools-1024.png" });
});
