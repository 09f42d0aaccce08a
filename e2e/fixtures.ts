import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every page is offline but for this server: any request elsewhere is aborted (so the suite is
 * deterministic), and console errors are collected for the tests that promise there are none.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(errors);
  },
  page: async ({ page }, use) => {
    await page.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
    await use(page);
  },
});

export { expect };

export function terminal(page: Page) {
  return page.locator(".xterm-rows");
}

/** The terminal's screen as lines (xterm draws one element per row). */
export function screenLines(page: Page): Promise<string[]> {
  return page
    .locator(".xterm-rows > div")
    .allInnerTexts()
    .then((rows) => rows.map((row) => row.replace(/\u00a0/g, " ").trimEnd()));
}

/** Types a command line into the terminal and presses Enter. */
export async function runInTerminal(page: Page, command: string): Promise<void> {
  await page.locator(".xterm").click();
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
}

/** Waits until the terminal shows a prompt again (no command running). */
export async function waitForIdle(page: Page): Promise<void> {
  await expect(page.locator("[data-testid=terminal]:not([data-busy])")).toBeVisible();
}

/**
 * Opens the page and brings the right pane's `tab` forward (Tools by default: most specs drive tools).
 * The first visit's welcome is dismissed beforehand, as for anyone past their first visit, unless
 * `firstVisit` (first-hour-desk.spec.ts tells that story).
 */
export async function openWorkbench(page: Page, query = "", tab: "tools" | "chat" = "tools", firstVisit = false): Promise<void> {
  // The top frame only: a sandboxed frame (python3's) has no storage, and reading it there throws.
  if (!firstVisit) {
    await page.addInitScript(() => {
      if (window === window.top) window.localStorage.setItem("workbench-welcome-dismissed", "1");
    });
  }
  await page.goto(`/${query}`);
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await expect(terminal(page)).toContainText("user@workbench");
  await page.getByTestId(`tab-${tab}`).click();
}

/** A workspace name no other test uses; in memory only unless `memory` is false. */
export function freshWorkspace(prefix: string, memory = true): string {
  return `?workspace=e2e-${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}${memory ? "&memory=1" : ""}`;
}

/** Opens the palette with Ctrl+K, picks `tool` by typing its name, fills the form and presses Enter. */
export async function runTool(page: Page, tool: string, fields: Record<string, string | boolean>): Promise<void> {
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await page.keyboard.press("Control+k");
  const palette = page.getByTestId("tool-palette");
  await expect(palette).toBeVisible();
  await palette.getByLabel("Filter tools").fill(tool);
  await palette.getByLabel("Filter tools").press("Enter");
  await expect(palette.getByTestId("tool-form")).toBeVisible();
  let last;
  for (const [name, value] of Object.entries(fields)) {
    const input = palette.locator(`#tool-field-${name}`);
    if (typeof value === "boolean") await input.setChecked(value);
    else await input.fill(value);
    last = input;
  }
  await (last ?? palette.locator("input, textarea").first()).press("Enter");
  await expect(palette).toBeHidden();
}

/** The transcript's call cards, oldest first. */
export function callCard(page: Page, index: number) {
  return page.getByTestId("call-card").nth(index);
}
