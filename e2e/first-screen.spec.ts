/**
 * Issue 30, item 9: the first screen is about the task, not the machinery. The header no longer leads
 * with "just-bash in a worker, files in ZenFS"; the welcome's next step follows what the person did (a
 * key added: ask the agent), and once dismissed it comes back from Session ▾ → Getting started. The start
 * lives in one place (the desk's welcome, not again in the chat's card), comes back on a blank workspace,
 * offers templates, and Settings says what the runtime is.
 */
import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, terminal, test } from "./fixtures.js";

async function setTheme(page: Page, theme: "dark" | "light"): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme", theme);
}

async function shots(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const theme of ["light", "dark"] as const) {
      await setTheme(page, theme);
      await page.screenshot({ path: `e2e/screenshots/first-screen-${name}-${width}-${theme}.png` });
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

test("the welcome moves on once a key is added, the header keeps the runtime's machinery to a tooltip, and the menu brings the welcome back", async ({
  page,
  consoleErrors,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkbench(page, freshWorkspace("first-screen", false), "chat", true);
  const status = page.getByTestId("runtime-status");
  await expect(status).toHaveAttribute("data-phase", "ready");
  await expect(status.locator(".detail")).toHaveClass(/visually-hidden/);
  await expect(status).toHaveAttribute("title", "embedded (just-bash in a worker, files in ZenFS)");
  const welcome = page.getByTestId("desk-welcome");
  await expect(welcome.getByTestId("desk-welcome-add-key")).toBeVisible();
  await shots(page, "welcome");

  // A local server added from the welcome: the banner stops asking for a key and points at the chat.
  await welcome.getByTestId("desk-welcome-add-key").click();
  const dialog = page.getByTestId("provider-dialog");
  await dialog.getByTestId("provider-select").selectOption("+compatible");
  await dialog.getByTestId("provider-id").fill("local");
  await dialog.getByTestId("provider-base-url").fill("http://127.0.0.1:9/v1");
  await dialog.getByTestId("provider-models").fill("coder-test");
  await dialog.getByTestId("provider-save").click();
  await expect(dialog).toBeHidden();
  await expect(welcome.getByTestId("desk-welcome-add-key")).toHaveCount(0);
  await expect(welcome.getByTestId("desk-welcome-next")).toContainText("Your model is ready");
  await welcome.getByTestId("desk-welcome-ask").click();
  await expect(page.getByTestId("chat-pane").getByTestId("prompt-input")).toBeFocused();
  await shots(page, "key-added");

  // Dismissed, then asked for again from the Session menu: the demo and the sample are one click away.
  await welcome.getByTestId("desk-welcome-dismiss").click();
  await expect(welcome).toHaveCount(0);
  await page.getByTestId("session-menu").click();
  await page.getByTestId("menu-getting-started").click();
  await expect(page.getByTestId("desk-welcome")).toBeVisible();
  await expect(page.getByTestId("desk-welcome-demo")).toBeVisible();
  await expect(page.getByTestId("desk-welcome-sample")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("a blank workspace offers the one start again, the chat card repeats none of it, and a template lands, opens and runs", async ({
  page,
  consoleErrors,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  // Past the first visit (the welcome was dismissed), yet this workspace is new and empty: the start is back.
  await openWorkbench(page, freshWorkspace("first-screen-blank"), "chat");
  const welcome = page.getByTestId("desk-welcome");
  await expect(welcome).toBeVisible();
  await expect(welcome.getByTestId("desk-welcome-demo")).toBeVisible();
  const card = page.getByTestId("chat-pane").getByTestId("chat-welcome");
  await expect(card).toBeVisible();
  await expect(card.getByRole("button")).toHaveCount(0);
  await expect(page.getByTestId("chat-pane").getByRole("button", { name: /recorded demo/i })).toHaveCount(0);
  await shots(page, "blank");

  // The Node template: its files in node-tests/, its main file open, and its tests pass in the terminal.
  await welcome.getByTestId("desk-template-node-tests").click();
  await expect(page.locator('[data-testid=file-editor][data-path="/workspace/node-tests/sum.js"] .cm-content')).toContainText(
    "export function sum(numbers)",
  );
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, "cd node-tests && node --test; cd ..");
  await expect(terminal(page)).toContainText(/pass 2\s*ℹ? ?fail 0/);

  // The Python template opens its script; the web page's index.html opens and the Preview shows it.
  await welcome.getByTestId("desk-template-python-script").click();
  await expect(page.locator('[data-testid=file-editor][data-path="/workspace/python-script/words.py"] .cm-content')).toContainText(
    "def word_counts(text)",
  );
  await welcome.getByTestId("desk-template-web-app").click();
  await expect(page.locator('[data-testid=file-editor][data-path="/workspace/web-app/index.html"] .cm-content')).toContainText(
    "<title>Counter</title>",
  );
  await page.getByTestId("tab-preview").click();
  await page.getByTestId("preview-address").fill("/web-app/index.html");
  await page.getByTestId("preview-address").press("Enter");
  const preview = page.frameLocator("[data-testid=preview-frame]");
  await preview.getByRole("button", { name: "Add one" }).click();
  await expect(preview.locator("#count")).toHaveText("1");
  await shots(page, "template");

  // A second click on a template writes nothing over what is there, and says so.
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, "echo '// mine' > web-app/app.js");
  await welcome.getByTestId("desk-template-web-app").click();
  await expect(page.getByTestId("notice")).toContainText("web-app/ was already here");
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, "cat web-app/app.js");
  await expect(terminal(page)).toContainText("// mine");
  expect(consoleErrors).toEqual([]);
});

test("Settings → Runtime says which runtime serves the workspace, what it is made of, why WebContainer may not boot, and asks it for its versions", async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkbench(page, freshWorkspace("first-screen-runtime"), "tools");
  await expect(page.getByTestId("runtime-status")).toHaveAttribute("data-phase", "ready");
  await expect(page.getByTestId("open-settings")).toBeEnabled();
  await page.getByTestId("open-settings").click();
  const section = page.getByTestId("settings").getByTestId("settings-runtime");
  await expect(section.getByTestId("settings-runtime-kind")).toHaveText("embedded");
  await expect(section.getByTestId("settings-runtime-detail")).toContainText("just-bash in a worker, files in ZenFS");
  await expect(section.getByTestId("settings-runtime-made-of")).toContainText("python3 is Pyodide");
  await expect(section.getByTestId("settings-runtime-webcontainer")).toContainText("cross-origin isolated");
  await expect(section.getByTestId("settings-runtime-check")).toBeVisible();
  // The dialog covers the theme button: each theme's pictures are taken with the dialog opened again.
  for (const theme of ["light", "dark"] as const) {
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("settings")).toBeHidden();
    await setTheme(page, theme);
    await page.getByTestId("open-settings").click();
    await section.getByTestId("settings-runtime-check").click();
    const answers = section.getByTestId("settings-runtime-version");
    await expect(answers).toHaveCount(3, { timeout: 90_000 });
    // What the runtime says when asked, not what the page assumes: the shape of a real answer.
    await expect(answers.nth(0)).toHaveText(/^v\d+\.\d+\.\d+$/);
    await expect(answers.nth(1)).toHaveText(/^\d+\.\d+\.\d+/);
    await expect(answers.nth(2)).toHaveText(/^Python 3\.\d+/);
    for (const [width, height] of [
      [1400, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `e2e/screenshots/first-screen-settings-runtime-${width}-${theme}.png` });
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  }
  expect(consoleErrors).toEqual([]);
});
