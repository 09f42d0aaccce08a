import type { Page } from "@playwright/test";
import { errorBodies, startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const chatPane = (page: Page) => page.getByTestId("chat-pane");
const tree = (page: Page) => page.getByRole("navigation", { name: "Workspace files" });

async function setTheme(page: Page, theme: "dark" | "light"): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme", theme);
}

/** Adds an OpenAI-compatible provider at `baseURL` with one model through the provider dialog. */
async function addCompatibleProvider(page: Page, options: { id: string; baseURL: string; model: string; key: string }): Promise<void> {
  await chatPane(page).getByTestId("open-keys").click();
  const dialog = page.getByTestId("provider-dialog");
  await dialog.getByTestId("provider-select").selectOption("+compatible");
  await dialog.getByTestId("provider-id").fill(options.id);
  await dialog.getByTestId("provider-base-url").fill(options.baseURL);
  await dialog.getByTestId("provider-models").fill(options.model);
  await dialog.getByTestId("provider-key").fill(options.key);
  await dialog.getByTestId("provider-save").click();
  await expect(dialog).toBeHidden();
  await expect(chatPane(page).getByTestId("model-picker")).toHaveValue(`${options.id}/${options.model}`);
}

async function send(page: Page, text: string): Promise<void> {
  const input = chatPane(page).getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
}

test("the recorded demo: text streams, the edit asks in the transcript, TODO.md appears, and a reload finds the session whole", async ({ page, consoleErrors }) => {
  await openWorkbench(page, freshWorkspace("chat-demo", false), "chat");
  await runInTerminal(page, `echo '{"permission": {"edit": "ask"}}' > opencode.json`);
  await waitForIdle(page);
  // A new session reads opencode.json again.
  await page.getByRole("button", { name: "New session" }).click();
  await expect(chatPane(page).getByTestId("chat-welcome")).toBeVisible();
  await setTheme(page, "dark");
  await page.screenshot({ path: "e2e/screenshots/chat-welcome-dark.png" });

  await chatPane(page).getByTestId("welcome-demo").click();
  await expect(chatPane(page).getByTestId("user-message")).toContainText("Start a TODO.md");
  const first = chatPane(page).getByTestId("assistant-message").first();
  // Streaming: the message is marked live while its words arrive.
  await expect(chatPane(page).locator(".chat-message.assistant.streaming")).toHaveCount(1);
  await expect(first).toContainText("I'll start with a TODO.md");

  // edit: ask, so the write waits for the person, in the transcript under its call.
  const prompt = chatPane(page).getByTestId("permission-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("edit");
  await page.screenshot({ path: "e2e/screenshots/chat-demo-permission-dark.png" });
  await prompt.getByRole("button", { name: "Allow once" }).click();
  await expect(tree(page).getByText("TODO.md")).toBeVisible();

  // The edit asks too, showing the change it proposes.
  await expect(prompt).toBeVisible();
  await expect(prompt.getByTestId("diff")).toContainText("+- [x] Write a README for the workspace");
  await prompt.getByRole("button", { name: "Allow once" }).click();

  const table = chatPane(page).locator(".markdown table");
  await expect(table).toContainText("Try the chat with a real provider key");
  await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
  const tools = chatPane(page).getByTestId("tool-part");
  await expect(tools).toHaveCount(3);
  await expect(tools.nth(1).getByTestId("diff")).toContainText("-- [ ] Write a README for the workspace");
  await expect(tools.nth(2)).toContainText("2");
  await page.screenshot({ path: "e2e/screenshots/chat-demo-done-dark.png" });
  await setTheme(page, "light");
  await page.screenshot({ path: "e2e/screenshots/chat-demo-done-light.png" });

  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await expect(chatPane(page).getByTestId("user-message")).toContainText("Start a TODO.md");
  await expect(chatPane(page).getByTestId("assistant-message")).toHaveCount(4);
  await expect(chatPane(page).getByTestId("tool-part")).toHaveCount(3);
  await expect(chatPane(page).getByTestId("tool-part").nth(1).getByTestId("diff")).toContainText("+- [x] Write a README for the workspace");
  await expect(chatPane(page).locator(".markdown table")).toContainText("Add a test for the parser");
  await expect(tree(page).getByText("TODO.md")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
