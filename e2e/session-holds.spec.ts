/**
 * Issue 30: a session that holds together for a new user. Each story failed before its fix: transcript
 * rows stacked at a guessed height after a permission prompt, a local server without a key forgotten on
 * reload, what the model read forgotten when Settings saved a rule, opencode.json edited in the terminal
 * ignored until a reload, and a phone's chat squeezed to a sliver.
 */
import type { Page } from "@playwright/test";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const SHOTS = "/tmp/ux-chat-shots";
const chatPane = (page: Page) => page.getByTestId("chat-pane");

async function setTheme(page: Page, theme: "dark" | "light"): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme", theme);
}

/** Adds an OpenAI-compatible server with one model and no key, as a person with Ollama would. */
async function addKeylessServer(page: Page, server: ProviderServer, id = "local"): Promise<void> {
  await chatPane(page).getByTestId("open-keys").click();
  const dialog = page.getByTestId("provider-dialog");
  await dialog.getByTestId("provider-select").selectOption("+compatible");
  await dialog.getByTestId("provider-id").fill(id);
  await dialog.getByTestId("provider-base-url").fill(server.openaiBaseURL);
  await dialog.getByTestId("provider-models").fill("coder-test");
  await dialog.getByTestId("provider-save").click();
  await expect(dialog).toBeHidden();
  await expect(chatPane(page).getByTestId("model-picker")).toHaveValue(`${id}/coder-test`);
}

async function send(page: Page, text: string): Promise<void> {
  const input = chatPane(page).getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
}

async function idle(page: Page): Promise<void> {
  await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
}

/** Sends `text` and waits for the turn to end with `answer` as the last words. */
async function ask(page: Page, text: string, answer: string): Promise<void> {
  await send(page, text);
  await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText(answer);
  await idle(page);
}

/** One model turn: a tool call, then a short answer. */
function turn(server: ProviderServer, name: string, input: unknown, answer: string): void {
  server.enqueue({ step: { toolCalls: [{ name, input }] } }, { step: { text: answer } });
}

/**
 * How far each drawn transcript row is from sitting right under the one before it: 0 when rows stack as
 * they are drawn; negative when a row covers the one above, positive when a gap is left.
 */
function rowOffsets(page: Page): Promise<Array<{ message: string; off: number }>> {
  return chatPane(page)
    .locator(".chat-row")
    .evaluateAll((rows) => {
      const boxes = rows
        .map((row) => ({ message: row.getAttribute("data-message") ?? "", box: row.getBoundingClientRect() }))
        .sort((a, b) => a.box.top - b.box.top);
      return boxes.slice(1).map((row, index) => ({ message: row.message, off: Math.round(row.box.top - boxes[index]!.box.bottom) }));
    });
}

test.describe("with a local server (no key)", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("after a rejected permission prompt, new rows still sit where their real height puts them", async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await openWorkbench(page, freshWorkspace("rows", false), "chat");
    await runInTerminal(
      page,
      `echo '{"permission":{"edit":"ask"}}' > opencode.json; mkdir -p src; seq 1 40 | sed 's/^/line /' > src/long.txt; echo hi > notes.md`,
    );
    await waitForIdle(page);
    await page.reload();
    await page.getByTestId("tab-chat").click();
    await addKeylessServer(page, server);

    turn(server, "read", { filePath: "src/long.txt" }, "Read it.");
    await ask(page, "read src/long.txt", "Read it.");
    turn(server, "list", { path: "." }, "Listed.");
    await ask(page, "list the files", "Listed.");
    turn(server, "todowrite", { todos: [{ id: "1", content: "Check the notes", status: "pending", priority: "high" }] }, "Planned.");
    await ask(page, "make a todo list", "Planned.");
    turn(server, "read", { filePath: "notes.md" }, "Read the notes.");
    await ask(page, "read notes.md", "Read the notes.");

    server.enqueue({ step: { toolCalls: [{ name: "edit", input: { filePath: "notes.md", oldString: "hi", newString: "hello" } }] } });
    await send(page, "edit notes.md");
    const prompt = chatPane(page).getByTestId("permission-prompt");
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: "Reject" }).click();
    await idle(page);
    // A rejection ends the turn (as in OpenCode): the model is not asked again.
    expect(server.drain()).toBe(0);

    // After the prompt: a tall read card, then short messages.
    turn(server, "read", { filePath: "src/long.txt" }, "Read it again.");
    await ask(page, "read src/long.txt again", "Read it again.");
    server.enqueue({ step: { text: "Yes." } });
    await ask(page, "ok?", "Yes.");
    // Rows are measured within a frame or two of being drawn.
    await expect.poll(async () => (await rowOffsets(page)).filter((row) => Math.abs(row.off) > 1), { timeout: 5000 }).toEqual([]);
    for (const theme of ["light", "dark"] as const) {
      await setTheme(page, theme);
      await page.screenshot({ path: `${SHOTS}/rows-after-reject-1400-${theme}.png` });
    }
    expect(consoleErrors).toEqual([]);
  });

  test("a server added without a key is still there after a reload; the only choice offered is about keys", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("keyless", false), "chat");
    await chatPane(page).getByTestId("open-keys").click();
    const dialog = page.getByTestId("provider-dialog");
    await dialog.getByTestId("provider-select").selectOption("+compatible");
    // Nothing about remembering until there is a key to remember.
    await expect(dialog.getByTestId("provider-remember")).toHaveCount(0);
    await dialog.getByTestId("provider-key").fill("sk-x");
    await expect(dialog.getByTestId("provider-remember")).toBeVisible();
    await expect(dialog.getByText("Remember the key on this device")).toBeVisible();
    await dialog.getByTestId("provider-key").fill("");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await addKeylessServer(page, server, "ollama");
    await page.reload();
    await page.getByTestId("tab-chat").click();
    await expect(chatPane(page).getByTestId("model-picker")).toHaveValue("ollama/coder-test");
    server.enqueue({ step: { text: "Still here." } });
    await send(page, "there?");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Still here.");
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  test("saving a rule in Settings keeps what the model has read: its next edit of that file lands", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("filetime"), "chat");
    await runInTerminal(page, "echo 'first line' > kept.txt");
    await waitForIdle(page);
    await addKeylessServer(page, server);
    turn(server, "read", { filePath: "kept.txt" }, "Read it.");
    await ask(page, "read kept.txt", "Read it.");

    await page.getByTestId("tab-tools").click();
    await page.getByTestId("open-settings").click();
    const settings = page.getByTestId("settings");
    await settings.getByRole("button", { name: "Add rule" }).click();
    await settings.getByLabel("Permission of rule 1").fill("webfetch");
    await settings.getByLabel("Pattern of rule 1").fill("*");
    await settings.getByLabel("Action of rule 1").selectOption("deny");
    await settings.getByTestId("save-rules").click();
    await expect(settings.getByTestId("save-status")).toContainText("in force");
    await page.keyboard.press("Escape");

    await page.getByTestId("tab-chat").click();
    turn(server, "edit", { filePath: "kept.txt", oldString: "first line", newString: "edited line" }, "Edited.");
    await ask(page, "edit kept.txt", "Edited.");
    const card = chatPane(page).getByTestId("tool-part").last();
    await expect(card).not.toContainText("You must read file");
    await runInTerminal(page, "cat kept.txt");
    await expect(page.locator(".xterm-rows")).toContainText("edited line");
    // The session reopened by the save keeps the rows' measured heights too.
    await expect.poll(async () => (await rowOffsets(page)).filter((row) => Math.abs(row.off) > 1), { timeout: 5000 }).toEqual([]);
  });

  test("opencode.json changed in the terminal applies at the next call, and the page says so", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("config-live"), "chat");
    await addKeylessServer(page, server);
    turn(server, "bash", { command: "echo allowed", description: "echo" }, "Ran it.");
    await ask(page, "run echo first", "Ran it.");
    await expect(chatPane(page).getByTestId("tool-part").last()).toContainText("allowed");
    await runInTerminal(page, `echo '{"permission":{"bash":{"echo *":"deny"}}}' > opencode.json`);
    await waitForIdle(page);
    const note = page.getByTestId("config-changed-note");
    await expect(note).toContainText("opencode.json changed");
    await expect(note).toContainText("next call");
    await page.screenshot({ path: `${SHOTS}/config-note-1400.png` });

    turn(server, "bash", { command: "echo reached", description: "echo" }, "Done.");
    await ask(page, "run echo", "Done.");
    const card = chatPane(page).getByTestId("tool-part").last();
    await expect(card).toContainText("Denied by a rule");
    // The transcript went on in the reopened session.
    await expect(chatPane(page).getByTestId("user-message")).toHaveCount(2);
  });
});

test("on a phone (390x844) one pane shows at a time, the header keeps to one line and the chat is usable", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openWorkbench(page, freshWorkspace("phone"), "tools");
  const switcher = page.getByTestId("pane-switcher");
  await expect(switcher).toBeVisible();
  const header = page.locator("header.top");
  expect((await header.boundingBox())!.height).toBeLessThan(48);

  await switcher.getByRole("button", { name: "Agent" }).click();
  await page.getByTestId("tab-chat").click();
  await page.getByTestId("desk-welcome-demo").click();
  await expect(chatPane(page).getByTestId("user-message")).toContainText("Add a slugify helper");
  const keys = chatPane(page).getByTestId("open-keys");
  await expect(keys).toBeInViewport({ ratio: 1 });
  const transcript = (await chatPane(page).getByTestId("chat-transcript").boundingBox())!;
  expect(transcript.height).toBeGreaterThan(300);
  await expect(chatPane(page).getByTestId("prompt-input")).toBeInViewport();
  await expect(page.locator(".sidebar")).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    await page.screenshot({ path: `${SHOTS}/phone-chat-${theme}.png` });
  }
  // The other panes are a tap away.
  await switcher.getByRole("button", { name: "Files" }).click();
  await expect(page.locator(".sidebar")).toBeVisible();
  await expect(chatPane(page)).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/phone-files-dark.png` });
  await switcher.getByRole("button", { name: "Terminal" }).click();
  await expect(page.locator(".xterm-rows")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/phone-terminal-dark.png` });
  await switcher.getByRole("button", { name: "Agent" }).click();
  await page.getByTestId("tab-tools").click();
  await expect(page.getByTestId("open-palette")).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/phone-tools-dark.png` });
});
