/**
 * Undo per step in the built page (issue 31), with a local OpenAI-compatible server scripting the model:
 * "Undo from here" on a message sets the files back and puts the message back in the box, Redo (the
 * button, and Ctrl+Shift+Z) gives them back; "Revert this call" takes one call back, or says which later
 * call stands in the way; a hand edit made in the terminal after the agent's makes undo ask first, and
 * keeping it keeps it. Files are read through the terminal, as a person would check them.
 */
import type { Page } from "@playwright/test";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, screenLines, test, waitForIdle } from "./fixtures.js";
import { addLocalProvider } from "./local-provider.js";

const chatPane = (page: Page) => page.getByTestId("chat-pane");

async function send(page: Page, text: string): Promise<void> {
  const input = chatPane(page).getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
  await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
}

let probe = 0;
/** The files' contents as the terminal shows them: `name=<content>` per file, "none" for a missing one. */
async function contents(page: Page, ...names: string[]): Promise<string> {
  const mark = `probe${++probe}`;
  await runInTerminal(page, `for f in ${names.join(" ")}; do printf '${mark} %s=%s\\n' "$f" "$(cat "$f" 2>/dev/null || echo none)"; done`);
  await waitForIdle(page);
  let lines: string[] = [];
  await expect
    .poll(async () => {
      lines = (await screenLines(page)).filter((line) => line.startsWith(`${mark} `));
      return lines.length;
    })
    .toBe(names.length);
  return lines.map((line) => line.slice(mark.length + 1)).join(" ");
}

test.describe("undo per step", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("undo from a message, the message back in the box, redo; revert one call; a later hand edit makes undo ask", async ({
    page,
    consoleErrors,
  }) => {
    await openWorkbench(page, freshWorkspace("undo"), "chat");
    await addLocalProvider(page, server.openaiBaseURL, "sk-undo-e2e");

    server.enqueue(
      { step: { toolCalls: [{ name: "write", input: { filePath: "a.txt", content: "one\n" } }] } },
      { step: { text: "Wrote a.txt." } },
    );
    await send(page, "write a.txt");
    server.enqueue(
      { step: { toolCalls: [{ name: "write", input: { filePath: "a.txt", content: "two\n" } }] } },
      { step: { toolCalls: [{ name: "write", input: { filePath: "b.txt", content: "bee\n" } }] } },
      { step: { text: "Changed a.txt and wrote b.txt." } },
    );
    await send(page, "change a.txt and add b.txt");
    expect(await contents(page, "a.txt", "b.txt")).toBe("a.txt=two b.txt=bee");

    // Undo from the second message: the files as before it, the message back in the box.
    await chatPane(page).getByTestId("undo-from-here").nth(1).click();
    await expect(chatPane(page).getByTestId("undo-staged")).toBeVisible();
    await expect(chatPane(page).getByTestId("prompt-input")).toHaveValue("change a.txt and add b.txt");
    expect(await contents(page, "a.txt", "b.txt")).toBe("a.txt=one b.txt=none");
    await page.screenshot({ path: "e2e/screenshots/undo-staged.png" });

    // Redo with the keys gives the files back.
    await chatPane(page).getByTestId("prompt-input").focus();
    await page.keyboard.press("Control+Shift+Z");
    await expect(chatPane(page).getByTestId("undo-staged")).toBeHidden();
    expect(await contents(page, "a.txt", "b.txt")).toBe("a.txt=two b.txt=bee");

    // Revert the call that wrote b.txt alone: a.txt keeps its second version.
    await page.getByTestId("tab-chat").click();
    const cards = chatPane(page).getByTestId("tool-part");
    await expect(cards).toHaveCount(3);
    await cards.nth(2).getByTestId("revert-call").click();
    await expect(chatPane(page).getByTestId("undo-outcome")).toContainText("Reverted this call: 1 path set back.");
    expect(await contents(page, "a.txt", "b.txt")).toBe("a.txt=two b.txt=none");

    // The first call's file was written again later: it says by which call, and offers to go back further.
    await page.getByTestId("tab-chat").click();
    await cards.nth(0).getByTestId("revert-call").click();
    const outcome = chatPane(page).getByTestId("undo-outcome");
    await expect(outcome).toHaveAttribute("data-status", "conflict");
    await expect(outcome).toContainText("a.txt was changed later by call write");
    await outcome.getByTestId("undo-dismiss").click();

    // A hand edit after the agent's: undo lists it and asks; keeping it keeps it.
    await runInTerminal(page, "echo mine > a.txt");
    await waitForIdle(page);
    await page.getByTestId("tab-chat").click();
    await chatPane(page).getByTestId("undo-from-here").nth(0).click();
    await expect(outcome).toHaveAttribute("data-status", "needs-confirmation");
    await expect(outcome.getByTestId("undo-overwrites")).toHaveText("a.txt");
    await page.screenshot({ path: "e2e/screenshots/undo-asks.png" });
    await outcome.getByTestId("undo-dismiss").click();
    expect(await contents(page, "a.txt")).toBe("a.txt=mine");

    // Asked again and confirmed: the files as before the first message (no a.txt at all).
    await page.getByTestId("tab-chat").click();
    await chatPane(page).getByTestId("undo-from-here").nth(0).click();
    await outcome.getByTestId("undo-confirm").click();
    await expect(chatPane(page).getByTestId("undo-staged")).toBeVisible();
    await expect(chatPane(page).getByTestId("prompt-input")).toHaveValue("write a.txt");
    expect(await contents(page, "a.txt", "b.txt")).toBe("a.txt=none b.txt=none");

    // Sending commits the undo: the undone messages leave the transcript, the new one is the only one.
    await page.getByTestId("tab-chat").click();
    server.enqueue({ step: { text: "Starting over." } });
    await send(page, "start over");
    await expect(chatPane(page).getByTestId("user-message")).toHaveCount(1);
    await expect(chatPane(page).getByTestId("user-message")).toContainText("start over");
    await expect(chatPane(page).getByTestId("undo-staged")).toBeHidden();
    await page.screenshot({ path: "e2e/screenshots/undo-committed.png" });
    expect(consoleErrors).toEqual([]);
  });

  test("a file's history: its versions by call, a diff to now, and restoring one that the terminal then shows", async ({
    page,
    consoleErrors,
  }) => {
    await openWorkbench(page, freshWorkspace("history"), "chat");
    await addLocalProvider(page, server.openaiBaseURL, "sk-undo-e2e");
    server.enqueue(
      { step: { toolCalls: [{ name: "write", input: { filePath: "notes.txt", content: "alpha beta\n" } }] } },
      { step: { text: "Wrote notes.txt." } },
    );
    await send(page, "write notes");
    server.enqueue(
      { step: { toolCalls: [{ name: "write", input: { filePath: "notes.txt", content: "alpha gamma\n" } }] } },
      { step: { text: "Changed notes.txt." } },
    );
    await send(page, "change notes");
    expect(await contents(page, "notes.txt")).toBe("notes.txt=alpha gamma");

    await page.locator('.file-tree li[data-path="/workspace/notes.txt"] > .tree-row > button.tree-name').click();
    const editor = page.getByTestId("file-editor");
    await editor.getByTestId("file-history-toggle").click();
    const versions = editor.getByTestId("file-history-version");
    await expect(versions).toHaveCount(2);
    await expect(versions.nth(0)).toContainText("write call");
    // The older version: its diff to now takes beta out and puts gamma in (one line changed).
    await versions.nth(1).click();
    const detail = editor.getByTestId("file-history-detail");
    await expect(detail.getByTestId("diff-box")).toContainText("-alpha beta");
    await expect(detail.getByTestId("diff-box")).toContainText("+alpha gamma");
    await page.screenshot({ path: "e2e/screenshots/file-history.png" });
    await detail.getByTestId("file-history-restore").click();
    await detail.getByTestId("file-history-confirm").click();
    await expect(editor.getByTestId("file-history-message")).toContainText("Restored");
    await expect(detail.getByTestId("file-history-same")).toBeVisible();
    await page.getByTestId("tab-terminal").click();
    expect(await contents(page, "notes.txt")).toBe("notes.txt=alpha beta");
    expect(consoleErrors).toEqual([]);
  });
});
