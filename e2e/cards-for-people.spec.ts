/**
 * Issue 30, item 11: the cards a person reads in the chat show what happened, not the model's wire
 * formats, while the model still gets OpenCode's. A local OpenAI-compatible server scripts the calls: a
 * read, an edit, a todo list, a command killed by its timeout, a long output opened in full.
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

/** Everything the model was sent as tool results, over all requests. */
function toolResults(server: ProviderServer): string {
  return server.requests
    .flatMap((request) => (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)))
    .join("\n");
}

test.describe("cards for people", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("read, edit, todo and a timed-out command read as what happened; the model still gets OpenCode's formats", async ({
    page,
    consoleErrors,
  }) => {
    await openWorkbench(page, freshWorkspace("cards-people"), "chat");
    await runInTerminal(page, "printf 'alpha\\nbeta\\n' > notes.txt");
    await waitForIdle(page);
    await addLocalProvider(page, server.openaiBaseURL);
    const todos = [
      { content: "Read the notes", status: "completed", priority: "high" },
      { content: "Fix the second line", status: "in_progress", priority: "high" },
      { content: "Tell the person", status: "pending", priority: "low" },
    ];
    server.enqueue(
      { step: { toolCalls: [{ name: "read", input: { filePath: "notes.txt" } }] } },
      { step: { toolCalls: [{ name: "edit", input: { filePath: "notes.txt", oldString: "beta", newString: "gamma" } }] } },
      { step: { toolCalls: [{ name: "todowrite", input: { todos } }] } },
      { step: { toolCalls: [{ name: "bash", input: { command: "echo begun; sleep 20", description: "Waits too long", timeout: 1000 } }] } },
      { step: { text: "Done." } },
    );
    await send(page, "tidy the notes");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Done.", { timeout: 20_000 });
    const cards = chatPane(page).getByTestId("call-card");
    await expect(cards).toHaveCount(4);

    const read = cards.nth(0);
    const readLines = await read.getByTestId("call-output").locator(".vline").allInnerTexts();
    expect(readLines).toEqual(["alpha", "beta"]);
    await expect(read).not.toContainText("00001|");
    await expect(read).not.toContainText("<file>");
    await expect(read.getByTestId("call-read-note")).toHaveText("(End of file - total 2 lines)");

    const diff = cards.nth(1).getByTestId("diff");
    await expect(diff).toContainText("+gamma");
    await expect(diff).not.toContainText("Index:");
    await expect(diff).not.toContainText("=====");

    const todo = cards.nth(2);
    await expect(todo.locator(".call-title")).toHaveText("2 of 3 open");
    await expect(todo.getByTestId("call-todo")).toHaveText([/Read the notes/, /Fix the second line/, /Tell the person/]);
    await expect(todo.getByTestId("call-todo").nth(0)).toHaveAttribute("data-status", "completed");
    // The JSON list is the model's; the card has the checklist instead (the call's input stays folded away).
    await expect(todo.getByTestId("call-output")).toHaveCount(0);

    const killed = cards.nth(3);
    await expect(killed).toHaveAttribute("data-state", "timed out");
    await expect(killed.getByTestId("call-state")).toHaveText("timed out");
    await expect(killed.getByTestId("call-note")).toHaveText("Stopped: the command ran past its timeout of 1 s.");

    // The model read OpenCode's formats all the same.
    const sent = toolResults(server);
    expect(sent).toContain("<file>");
    expect(sent).toContain("00001| alpha");
    expect(sent).toContain("bash tool terminated command after exceeding timeout 1000 ms");

    await setTheme(page, "light");
    await page.setViewportSize({ width: 1400, height: 900 });
    await read.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/cards-people-1400-light.png" });
    await setTheme(page, "dark");
    await todo.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/cards-people-1400-dark.png" });
    expect(consoleErrors).toEqual([]);
  });

  test("Open full output shows the saved output in place of the cut preview, not after its first lines", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("cards-full"), "chat");
    await addLocalProvider(page, server.openaiBaseURL);
    server.enqueue(
      { step: { toolCalls: [{ name: "bash", input: { command: "seq 1 10000", description: "Counts" } }] } },
      { step: { text: "Counted." } },
    );
    await send(page, "count");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Counted.", { timeout: 20_000 });
    const card = chatPane(page).getByTestId("call-card").first();
    await expect(card.getByTestId("call-output")).toBeVisible();
    await card.getByTestId("open-full-output").click();
    await expect(card.getByTestId("saved-output-lines")).toHaveAttribute("data-lines", "10000");
    await expect(card.getByTestId("call-output")).toHaveCount(0);
    await card.getByTestId("open-full-output").click();
    await expect(card.getByTestId("call-output")).toBeVisible();
  });
});
