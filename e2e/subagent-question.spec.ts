/**
 * A subagent allowed to ask the person (a trusted workspace's agent with question: allow): its question
 * waits where the person can reach it, in the subagent's session opened from the task card.
 */
import type { Page } from "@playwright/test";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const chatPane = (page: Page) => page.getByTestId("chat-pane");

test.describe("a subagent's question", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("shows in the main session's task card and in the subagent's session, and is answered there", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("subagent-question"), "chat");
    const config = { agent: { asker: { mode: "subagent", description: "asks the person", permission: { question: "allow" } } } };
    const noop = `import { tool } from "@opencode-ai/plugin"; export default tool({ description: "Does nothing", args: {}, async execute() { return "ok"; } });`;
    await runInTerminal(
      page,
      `echo '${JSON.stringify(config)}' > opencode.json && mkdir -p .opencode/tool && echo '${noop}' > .opencode/tool/noop.ts`,
    );
    await waitForIdle(page);
    await page.getByRole("button", { name: "New session" }).click();
    await page.getByRole("tab", { name: "Tools" }).click();
    await page.getByTestId("open-settings").click();
    const settings = page.getByTestId("settings");
    await settings.getByTestId("trust-workspace").click();
    await expect(settings.getByTestId("trusted-state")).toBeVisible();
    await page.keyboard.press("Escape");
    await page.getByRole("tab", { name: "Chat" }).click();
    await chatPane(page).getByTestId("open-keys").click();
    const dialog = page.getByTestId("provider-dialog");
    await dialog.getByTestId("provider-select").selectOption("+compatible");
    await dialog.getByTestId("provider-id").fill("local");
    await dialog.getByTestId("provider-base-url").fill(server.openaiBaseURL);
    await dialog.getByTestId("provider-models").fill("coder-test");
    await dialog.getByTestId("provider-key").fill("sk-subagent-question");
    await dialog.getByTestId("provider-save").click();
    await expect(dialog).toBeHidden();
    const question = {
      question: "Which colour?",
      header: "Colour",
      options: [
        { label: "Teal", description: "blue-green" },
        { label: "Red", description: "warm" },
      ],
    };
    server.enqueue(
      {
        step: {
          toolCalls: [
            { name: "task", input: { description: "Ask the colour", prompt: "Ask the person for a colour.", subagent_type: "asker" } },
          ],
        },
      },
      { step: { toolCalls: [{ name: "question", input: { questions: [question] } }] } },
      { step: { text: "They chose teal." } },
      { step: { text: "Teal it is." } },
    );
    const input = chatPane(page).getByTestId("prompt-input");
    await input.fill("pick a colour");
    await input.press("Enter");
    const progress = chatPane(page).getByTestId("task-progress");
    await expect(progress).toContainText("running question");
    // Shown in the main session's task card, where the person is looking.
    const inCard = progress.getByTestId("question-form");
    await expect(inCard).toContainText("Which colour?");
    await page.setViewportSize({ width: 390, height: 800 });
    await inCard.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/subagent-question-card-390.png" });
    await page.setViewportSize({ width: 1280, height: 800 });
    // And in the subagent's session, opened from the card, where it is answered.
    await progress.getByTestId("task-open").click();
    const form = chatPane(page).getByTestId("question-form");
    await expect(form).toContainText("Which colour?");
    await form.getByText("Teal", { exact: true }).click();
    await form.getByTestId("question-send").click();
    await expect(form).toHaveCount(0);
    await chatPane(page).getByTestId("breadcrumb-back").click();
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Teal it is.");
    await expect(chatPane(page).getByTestId("question-form")).toHaveCount(0);
  });
});
