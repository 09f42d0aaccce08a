/**
 * The session tools in the page, driven by a local OpenAI-compatible server scripted step by step: the
 * question tool answered, dismissed and answered with the person's own words; the todo checklist; a task
 * card that opens the subagent's session, and the breadcrumb back.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";
import { addLocalProvider } from "./local-provider.js";

const chatPane = (page: Page) => page.getByTestId("chat-pane");

/** Serious and critical axe violations in the right pane, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include("[data-testid=right-pane]")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(" ")}`));
}

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

/** The tool results the model was sent in request `index`. */
function toolResults(server: ProviderServer, index: number): string {
  const body = server.requests[index]!.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

const indent = {
  question: "Tabs or spaces?",
  header: "Indent",
  options: [
    { label: "Tabs", description: "One tab per level" },
    { label: "Spaces", description: "Two spaces per level" },
  ],
};

test.describe("session tools with a local provider", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("a question is answered, dismissed, and answered with the person's own text", async ({ page, consoleErrors }) => {
    await openWorkbench(page, freshWorkspace("session-question"), "chat");
    await addLocalProvider(page, server.openaiBaseURL, "sk-session-tools");

    server.enqueue({ step: { toolCalls: [{ name: "question", input: { questions: [indent] } }] } }, { step: { text: "Tabs it is." } });
    await send(page, "how should I indent?");
    const form = chatPane(page).getByTestId("question-form");
    await expect(form).toBeVisible();
    await expect(form).toContainText("Tabs or spaces?");
    await expect(chatPane(page).getByTestId("call-state").last()).toHaveText("waiting for answer");
    await setTheme(page, "light");
    await page.screenshot({ path: "e2e/screenshots/session-question-light.png" });
    await setTheme(page, "dark");
    await page.screenshot({ path: "e2e/screenshots/session-question-dark.png" });
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole("radio", { name: /Tabs/ }).check();
    await form.getByTestId("question-send").click();
    await expect(form).toBeHidden();
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Tabs it is.");
    expect(toolResults(server, 1)).toContain('User has answered your questions: "Tabs or spaces?"="Tabs"');

    // Dismissed: the call fails and the run stops; the model is not asked again.
    server.enqueue({ step: { toolCalls: [{ name: "question", input: { questions: [indent] } }] } });
    await send(page, "ask me again");
    await expect(form).toBeVisible();
    await form.getByTestId("question-dismiss").click();
    await expect(form).toBeHidden();
    await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
    await expect(chatPane(page).getByTestId("tool-part").last()).toContainText("The user dismissed this question");
    expect(server.requests).toHaveLength(3);

    // The person's own words instead of an option.
    server.enqueue(
      { step: { toolCalls: [{ name: "question", input: { questions: [indent] } }] } },
      { step: { text: "Three spaces it is." } },
    );
    await send(page, "one more time");
    await expect(form).toBeVisible();
    await form.getByTestId("question-own").fill("three spaces, please");
    await form.getByTestId("question-send").click();
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Three spaces it is.");
    expect(toolResults(server, 4)).toContain('"Tabs or spaces?"="three spaces, please"');
    expect(consoleErrors).toEqual([]);
  });

  test("the todo checklist follows todowrite, and a task card opens the subagent's session with a breadcrumb back", async ({
    page,
    consoleErrors,
  }) => {
    await openWorkbench(page, freshWorkspace("session-task"), "chat");
    await runInTerminal(page, "echo 'the colour is teal' > notes.txt");
    await waitForIdle(page);
    await addLocalProvider(page, server.openaiBaseURL, "sk-session-tools");

    const todos = [
      { content: "Read the notes", status: "completed", priority: "high" },
      { content: "Ask a subagent for the colour", status: "in_progress", priority: "high" },
      { content: "Tell the person", status: "pending", priority: "low" },
    ];
    server.enqueue(
      { step: { toolCalls: [{ name: "todowrite", input: { todos } }] } },
      {
        step: {
          toolCalls: [
            {
              name: "task",
              input: { description: "Find the colour", prompt: "Read notes.txt and say the colour.", subagent_type: "general" },
            },
          ],
        },
      },
      { step: { toolCalls: [{ name: "read", input: { filePath: "notes.txt" } }] } },
      { step: { text: "The colour is teal." } },
      { step: { text: "Teal, says the subagent." } },
    );
    await send(page, "what colour?");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Teal, says the subagent.");
    const list = chatPane(page).getByTestId("todo-list");
    await expect(list.getByTestId("todo-item")).toHaveCount(3);
    await expect(list).toContainText("1/3 done");
    await expect(list.getByTestId("todo-item").nth(1)).toHaveAttribute("data-status", "in_progress");

    const progress = chatPane(page).getByTestId("task-progress");
    await expect(progress).toContainText("@general");
    await expect(progress.getByTestId("task-calls")).toHaveText("1 call");
    await setTheme(page, "light");
    await page.screenshot({ path: "e2e/screenshots/session-task-light.png" });
    expect(await seriousViolations(page)).toEqual([]);
    await progress.getByTestId("task-open").click();

    const crumb = chatPane(page).getByTestId("chat-breadcrumb");
    await expect(crumb).toContainText("Main session");
    await expect(crumb).toContainText("Find the colour (@general subagent)");
    await expect(chatPane(page).getByTestId("user-message").first()).toContainText("Read notes.txt and say the colour.");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("The colour is teal.");
    await expect(chatPane(page).getByTestId("tool-part")).toHaveCount(1);
    await expect(chatPane(page).getByTestId("prompt-input")).toHaveCount(0);
    await expect(chatPane(page).getByTestId("model-picker")).toHaveCount(0);
    await setTheme(page, "dark");
    await page.screenshot({ path: "e2e/screenshots/session-task-child-dark.png" });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: "e2e/screenshots/session-task-child-390.png" });

    await crumb.getByTestId("breadcrumb-back").click();
    await expect(crumb).toBeHidden();
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Teal, says the subagent.");
    await expect(chatPane(page).getByTestId("prompt-input")).toBeVisible();
    await expect(chatPane(page).getByTestId("model-picker")).toHaveValue("local/coder-test");
    expect(consoleErrors).toEqual([]);
  });

  test("a batch shows each of its calls as a card of its own under it, a failure among them", async ({ page, consoleErrors }) => {
    await openWorkbench(page, freshWorkspace("session-batch"), "chat");
    await runInTerminal(page, `echo 'one' > one.txt && echo '{"experimental": {"batch_tool": true}}' > opencode.json`);
    await waitForIdle(page);
    // A new session reads opencode.json again.
    await page.getByRole("button", { name: "New session" }).click();
    await addLocalProvider(page, server.openaiBaseURL, "sk-session-tools");
    server.enqueue(
      {
        step: {
          toolCalls: [
            {
              name: "batch",
              input: {
                tool_calls: [
                  { tool: "read", parameters: { filePath: "one.txt" } },
                  { tool: "read", parameters: { filePath: "missing.txt" } },
                ],
              },
            },
          ],
        },
      },
      { step: { text: "One of two." } },
    );
    await send(page, "read both");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("One of two.");
    const nested = chatPane(page).getByTestId("batch-calls").getByTestId("call-card");
    await expect(nested).toHaveCount(2);
    await expect(nested.nth(0)).toHaveAttribute("data-state", "completed");
    await expect(nested.nth(1)).toHaveAttribute("data-state", "error");
    await expect(chatPane(page).locator("[data-tool=batch]")).toContainText("Batch execution (1/2 successful)");
    expect(toolResults(server, 1)).toContain("Executed 1/2 tools successfully. 1 failed.");
    await page.screenshot({ path: "e2e/screenshots/session-batch.png" });
    expect(consoleErrors).toEqual([]);
  });
});
