/**
 * A provider that fails slowly or not at all, as a person with a local server meets it: a server that is
 * down, one that accepts and never answers, and one that answers 500 every time. The page says what
 * could be wrong without guessing CORS, shows how long the turn has been going, gives up on silence after
 * opencode.json's chunkTimeout, and lets the person stop the retries with one click.
 */
import type { Page } from "@playwright/test";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";
import { addLocalProvider } from "./local-provider.js";

const chatPane = (page: Page) => page.getByTestId("chat-pane");

async function send(page: Page, text: string): Promise<void> {
  const input = chatPane(page).getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
}

async function setTheme(page: Page, theme: "dark" | "light"): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme", theme);
}

test("a local server that is down is not headlined as a CORS refusal: both causes, and the fix for each", async ({ page }) => {
  const gone = await startProviderServer({ corsOrigin: "*" });
  const baseURL = gone.openaiBaseURL;
  await gone.close();
  await openWorkbench(page, freshWorkspace("down-server"), "chat");
  await addLocalProvider(page, baseURL);
  await send(page, "hello?");
  const error = chatPane(page).getByTestId("message-error");
  await expect(error).toBeVisible();
  await expect(error.locator("strong")).toHaveText("Could not reach the server (not running, or it refuses this page's origin)");
  await expect(error).not.toContainText("refused this page's origin (CORS)");
  await expect(error).toContainText(`${new URL(baseURL).host} did not answer`);
  const hint = error.getByTestId("message-error-hint");
  await expect(hint).toContainText(`If the server at ${new URL(baseURL).origin} is not running, start it`);
  await expect(hint).toContainText("If it is running, it must answer CORS for");
  await setTheme(page, "light");
  await page.screenshot({ path: "e2e/screenshots/slow-down-server-light.png" });
});

test.describe("slow failures from a local server", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("a server that accepts and sends nothing is given up after chunkTimeout, the wait shows its time, and one click stops the retries", async ({
    page,
    consoleErrors,
  }) => {
    await openWorkbench(page, freshWorkspace("silent-server", false), "chat");
    await runInTerminal(page, `echo '{"provider": {"local": {"options": {"chunkTimeout": 1000}}}}' > opencode.json`);
    await waitForIdle(page);
    await page.getByRole("button", { name: "New session" }).click();
    await addLocalProvider(page, server.openaiBaseURL);
    server.enqueue({ silent: true }, { silent: true }, { silent: true }, { silent: true });
    await send(page, "are you there?");
    const status = chatPane(page).getByTestId("chat-status");
    await expect(chatPane(page).getByTestId("chat-elapsed")).toHaveText(/^0:0\d$/);
    // Given up after 1 s of silence (not the default two minutes), then retried.
    await expect(status).toHaveAttribute("data-status", "retry", { timeout: 5_000 });
    await expect(chatPane(page).getByTestId("chat-status-text")).toContainText("sent nothing for 1 s before answering");
    await expect(chatPane(page).getByTestId("chat-elapsed")).not.toHaveText("0:00");
    await setTheme(page, "dark");
    await page.screenshot({ path: "e2e/screenshots/slow-retrying-dark.png" });
    const requestsBefore = server.requests.length;
    await chatPane(page).getByTestId("stop-retrying").click();
    await expect(status).toHaveAttribute("data-status", "idle");
    await expect(chatPane(page).getByTestId("stop-retrying")).toHaveCount(0);
    const error = chatPane(page).getByTestId("message-error");
    await expect(error.locator("strong")).toHaveText("Stopped");
    await expect(error).toContainText("Stopped retrying after 1 failed attempt: The answer stalled");
    expect(server.requests.length).toBe(requestsBefore);
    expect(server.drain()).toBe(3);
    expect(consoleErrors).toEqual([]);
  });

  test("a server that answers 500 every time gives up after 4 attempts, not 11", async ({ page }) => {
    test.slow();
    await openWorkbench(page, freshWorkspace("failing-server"), "chat");
    await addLocalProvider(page, server.openaiBaseURL);
    const failure = { error: { status: 500, body: { error: { message: "boom", type: "server_error" } } } };
    server.enqueue(...Array.from({ length: 11 }, () => failure));
    await send(page, "try");
    const error = chatPane(page).getByTestId("message-error");
    // 2 + 4 + 8 s of waiting between the four attempts.
    await expect(error).toBeVisible({ timeout: 30_000 });
    await expect(error).toContainText("Gave up after 4 attempts");
    expect(server.requests.filter((request) => request.method === "POST")).toHaveLength(4);
    expect(server.drain()).toBe(7);
  });
});
