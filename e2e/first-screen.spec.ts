/**
 * Issue 30, item 9: the first screen is about the task, not the machinery. The header no longer leads
 * with "just-bash in a worker, files in ZenFS"; the welcome's next step follows what the person did (a
 * key added: ask the agent), and once dismissed it comes back from Session ▾ → Getting started.
 */
import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, test } from "./fixtures.js";

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
