import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { errorBodies, startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const chatPane = (page: Page) => page.getByTestId("chat-pane");

/** Serious and critical axe violations in the right pane (and any dialog open over it), one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include("[data-testid=right-pane]")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(" ")}`));
}
const tree = (page: Page) => page.getByRole("navigation", { name: "Workspace files" });

async function setTheme(page: Page, theme: "dark" | "light"): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme", theme);
}

/** Adds an OpenAI-compatible provider at `baseURL` with one model through the provider dialog. */
async function addCompatibleProvider(
  page: Page,
  options: { id: string; baseURL: string; model: string; key: string; remember?: boolean },
): Promise<void> {
  await chatPane(page).getByTestId("open-keys").click();
  const dialog = page.getByTestId("provider-dialog");
  await dialog.getByTestId("provider-select").selectOption("+compatible");
  await dialog.getByTestId("provider-id").fill(options.id);
  await dialog.getByTestId("provider-base-url").fill(options.baseURL);
  await dialog.getByTestId("provider-models").fill(options.model);
  await dialog.getByTestId("provider-key").fill(options.key);
  if (options.remember) await dialog.getByTestId("provider-remember").check();
  await dialog.getByTestId("provider-save").click();
  await expect(dialog).toBeHidden();
  await expect(chatPane(page).getByTestId("model-picker")).toHaveValue(`${options.id}/${options.model}`);
}

async function send(page: Page, text: string): Promise<void> {
  const input = chatPane(page).getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
}

test("the recorded demo: the agent writes tests, runs them, sees one fail, fixes the code and runs them green; a reload finds the session whole", async ({
  page,
  consoleErrors,
}) => {
  await openWorkbench(page, freshWorkspace("chat-demo", false), "chat");
  await runInTerminal(page, `echo '{"permission": {"edit": "ask"}}' > opencode.json`);
  await waitForIdle(page);
  // A new session reads opencode.json again.
  await page.getByRole("button", { name: "New session" }).click();
  await expect(chatPane(page).getByTestId("chat-welcome")).toBeVisible();
  await setTheme(page, "dark");
  await page.screenshot({ path: "e2e/screenshots/chat-welcome-dark.png" });

  await page.getByTestId("desk-welcome-demo").click();
  await expect(chatPane(page).getByTestId("user-message")).toContainText("Add a slugify helper");
  const first = chatPane(page).getByTestId("assistant-message").first();
  // Streaming: the message is marked live while its words arrive.
  await expect(chatPane(page).locator(".chat-message.assistant.streaming")).toHaveCount(1);
  await expect(first).toContainText("I'll write the tests first");

  // edit: ask, so each write waits for the person, in the transcript under its call.
  const prompt = chatPane(page).getByTestId("permission-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("edit");
  await page.screenshot({ path: "e2e/screenshots/chat-demo-permission-dark.png" });
  await prompt.getByRole("button", { name: "Allow once" }).click();
  await expect(tree(page).getByText("demo", { exact: true })).toBeVisible();
  await expect(prompt).toBeVisible();
  await prompt.getByRole("button", { name: "Allow once" }).click();

  // The tests run in the tab's own node: one of three fails, and the fix is asked for with its diff.
  const tools = chatPane(page).getByTestId("tool-part");
  await expect(prompt).toBeVisible();
  await expect(tools.nth(2)).toContainText("trims dashes at both ends");
  await expect(prompt.getByTestId("diff")).toContainText('.replace(/^-|-$/g, "")');
  await prompt.getByRole("button", { name: "Allow once" }).click();

  const table = chatPane(page).locator(".markdown table");
  await expect(table).toContainText("trims dashes at both ends");
  await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
  await expect(tools).toHaveCount(5);
  await expect(tools.nth(2)).toContainText("ℹ fail 1");
  await expect(tools.nth(4)).toContainText("ℹ pass 3");
  await expect(tools.nth(4)).toContainText("ℹ fail 0");
  await page.screenshot({ path: "e2e/screenshots/chat-demo-done-dark.png" });
  await setTheme(page, "light");
  await page.screenshot({ path: "e2e/screenshots/chat-demo-done-light.png" });

  // What the agent left passes by hand, in the terminal.
  await runInTerminal(page, "node --test demo/slug.test.mjs && echo demo-green-$((40+2))");
  await expect(page.locator(".xterm-rows")).toContainText("demo-green-42");

  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  // The transcript draws only the rows near what is shown, and it opens at the end.
  await expect(chatPane(page).getByTestId("chat-transcript")).toHaveAttribute("data-messages", "7");
  await expect(chatPane(page).locator(".markdown table")).toContainText("drops punctuation");
  await expect(chatPane(page).getByTestId("tool-part").last()).toContainText("ℹ pass 3");
  await expect(page.getByTestId("session-picker").locator("option:checked")).toHaveText(/^Add a slugify helper/);
  await chatPane(page).getByTestId("chat-transcript").hover();
  await page.mouse.wheel(0, -20_000);
  await expect(chatPane(page).getByTestId("user-message")).toContainText("Add a slugify helper");
  await expect(tree(page).getByText("demo", { exact: true })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test.describe("a real provider (a local OpenAI-compatible server)", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("a key typed into the dialog reaches only that server, the model's write lands in the tree, and no export carries the key", async ({
    page,
    consoleErrors,
  }) => {
    const key = "sk-local-e2e-7731";
    const carriedKey: string[] = [];
    page.on("request", (request) => {
      if (JSON.stringify(request.headers()).includes(key) || (request.postData() ?? "").includes(key)) carriedKey.push(request.url());
    });
    await openWorkbench(page, freshWorkspace("chat-provider"), "chat");
    await addCompatibleProvider(page, { id: "local", baseURL: server.openaiBaseURL, model: "coder-test", key });
    await setTheme(page, "light");
    await page.screenshot({ path: "e2e/screenshots/chat-provider-ready-light.png" });

    // Tab in the message box cycles the primary agents.
    const agent = chatPane(page).getByTestId("agent-picker");
    await expect(agent).toHaveValue("build");
    await chatPane(page).getByTestId("prompt-input").press("Tab");
    await expect(agent).toHaveValue("plan");
    await chatPane(page).getByTestId("prompt-input").press("Tab");
    await expect(agent).toHaveValue("build");

    server.enqueue(
      {
        step: { text: "Creating it.", toolCalls: [{ name: "write", input: { filePath: "hello.txt", content: "hello from the model\n" } }] },
      },
      { step: { text: "Created **hello.txt**." } },
    );
    await send(page, "create hello.txt");
    await expect(tree(page).getByText("hello.txt")).toBeVisible();
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Created hello.txt.");
    await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");

    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/chat/completions",
      "POST /v1/chat/completions",
    ]);
    for (const request of server.requests) expect(request.headers.authorization).toBe(`Bearer ${key}`);
    const body = server.requests[0]!.body as { model: string; messages: Array<{ role: string; content: unknown }> };
    expect(body.model).toBe("coder-test");
    expect(JSON.stringify(body.messages.at(-1))).toContain("create hello.txt");
    expect(new Set(carriedKey.map((url) => new URL(url).origin))).toEqual(new Set([server.url]));

    const downloading = page.waitForEvent("download");
    await page.getByTestId("session-menu").click();
    await page.getByTestId("menu-export-session").click();
    const exported = await (await downloading).path();
    const text = await import("node:fs/promises").then((fs) => fs.readFile(exported, "utf8"));
    expect(text).toContain("create hello.txt");
    expect(text).not.toContain(key);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(key);
    await page.screenshot({ path: "e2e/screenshots/chat-provider-done-light.png" });
    expect(consoleErrors).toEqual([]);
  });

  test("a remembered key and server are there after a reload; forgetting them leaves no key behind", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("chat-remember", false), "chat");
    await addCompatibleProvider(page, {
      id: "kept",
      baseURL: server.openaiBaseURL,
      model: "coder-test",
      key: "sk-kept-42",
      remember: true,
    });
    await page.reload();
    await expect(chatPane(page).getByTestId("model-picker")).toHaveValue("kept/coder-test");
    server.enqueue({ step: { text: "Still here after the reload." } });
    await send(page, "are you there?");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Still here after the reload.");
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-kept-42");

    await chatPane(page).getByTestId("open-keys").click();
    const dialog = page.getByTestId("provider-dialog");
    await dialog.getByTestId("provider-select").selectOption("kept");
    await expect(dialog.getByTestId("provider-select").locator("option:checked")).toContainText("key set, remembered");
    await dialog.getByTestId("provider-remove").click();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.reload();
    await chatPane(page).getByTestId("open-keys").click();
    await expect(page.getByTestId("provider-select").locator("option", { hasText: "kept" })).toHaveCount(0);
    const stored = await page.evaluate(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const request = indexedDB.open("workbench-provider-keys");
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const keys = request.result.transaction("keys").objectStore("keys").getAllKeys();
            keys.onsuccess = () => resolve(keys.result.map(String));
          };
        }),
    );
    expect(stored).toEqual([]);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain("sk-kept-42");
  });

  test("an @path attachment sends the file's text to the model", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("chat-attach"), "chat");
    await runInTerminal(page, "mkdir -p docs && printf 'remember the milk\\n' > docs/notes.md");
    await waitForIdle(page);
    await addCompatibleProvider(page, { id: "local", baseURL: server.openaiBaseURL, model: "coder-test", key: "sk-ok" });
    const input = chatPane(page).getByTestId("prompt-input");
    await input.pressSequentially("summarise @do");
    await expect(chatPane(page).getByTestId("file-suggestions")).toContainText("docs/");
    await input.press("Enter");
    await expect(chatPane(page).getByTestId("file-suggestions")).toContainText("docs/notes.md");
    await input.press("Enter");
    await expect(chatPane(page).getByTestId("prompt-attachment")).toContainText("notes.md");
    server.enqueue({ step: { text: "It says to remember the milk." } });
    await input.press("Enter");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("remember the milk");
    const body = server.requests[0]!.body as { messages: Array<{ role: string; content: unknown }> };
    const user = JSON.stringify(body.messages.filter((message) => message.role === "user"));
    expect(user).toContain("remember the milk");
    expect(user).toContain("/workspace/docs/notes.md");
  });

  test("a refused key (401) shows as a bad key, with what to do", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("chat-401"), "chat");
    await addCompatibleProvider(page, { id: "local", baseURL: server.openaiBaseURL, model: "coder-test", key: "sk-wrong" });
    server.enqueue({
      error: { status: 401, body: errorBodies.openai("Incorrect API key provided: sk-wrong.", "invalid_request_error", "invalid_api_key") },
    });
    await send(page, "hello");
    const error = chatPane(page).getByTestId("message-error");
    await expect(error).toHaveAttribute("data-kind", "auth");
    await expect(error).toContainText("Incorrect API key");
    await expect(error.getByTestId("message-error-hint")).toContainText(/key/i);
    await setTheme(page, "dark");
    await page.screenshot({ path: "e2e/screenshots/chat-401-dark.png" });
    expect(server.requests).toHaveLength(1);
  });

  test("a rate limit (429) counts down to the retry, then the answer comes", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("chat-429"), "chat");
    await addCompatibleProvider(page, { id: "local", baseURL: server.openaiBaseURL, model: "coder-test", key: "sk-ok" });
    server.enqueue(
      {
        error: {
          status: 429,
          body: errorBodies.openai("Rate limit reached for requests", "requests", "rate_limit_exceeded"),
          headers: { "retry-after": "3" },
        },
      },
      { step: { text: "Here is the answer after the wait." } },
    );
    await send(page, "hello");
    const status = chatPane(page).getByTestId("chat-status");
    await expect(status).toHaveAttribute("data-status", "retry");
    await expect(status.getByTestId("chat-status-text")).toHaveText(/Retrying in [1-3] s \(attempt 1\)/);
    await setTheme(page, "dark");
    await page.screenshot({ path: "e2e/screenshots/chat-429-dark.png" });
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Here is the answer after the wait.", {
      timeout: 15_000,
    });
    await expect(status).toHaveAttribute("data-status", "idle");
    expect(server.requests).toHaveLength(2);
  });

  test("Stop mid-stream keeps the text so far and ends the request", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("chat-stop"), "chat");
    await addCompatibleProvider(page, { id: "local", baseURL: server.openaiBaseURL, model: "coder-test", key: "sk-ok" });
    server.enqueue({ hang: true, text: "The first half of a long answer" });
    await send(page, "write me an essay");
    const answer = chatPane(page).getByTestId("assistant-message").last();
    await expect(answer).toContainText("The first half of a long answer");
    await chatPane(page).getByTestId("stop").click();
    await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
    await expect(answer).toContainText("The first half of a long answer");
    await expect(answer.getByTestId("message-error")).toHaveAttribute("data-kind", "aborted");
    await expect.poll(() => server.aborted).toBe(1);
    await setTheme(page, "light");
    await page.screenshot({ path: "e2e/screenshots/chat-stopped-light.png" });

    // Escape stops too, wherever the focus is.
    server.enqueue({ hang: true, text: "Another long answer" });
    await send(page, "again");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Another long answer");
    await page.getByTestId("tab-chat").focus();
    await page.keyboard.press("Escape");
    await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
    await expect.poll(() => server.aborted).toBe(2);
  });
});

test("a session saved as a script replays in a new session, and an exported session imports back", async ({ page, consoleErrors }) => {
  await openWorkbench(page, freshWorkspace("chat-scripts"), "chat");
  await page.getByTestId("desk-welcome-demo").click();
  await expect(chatPane(page).locator(".markdown table")).toContainText("trims dashes at both ends");
  await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
  // The session took its name from the question.
  await expect(page.getByTestId("session-picker").locator("option:checked")).toHaveText(/^Add a slugify helper/);

  const menu = page.getByTestId("session-menu");
  let downloading = page.waitForEvent("download");
  await menu.click();
  await page.getByTestId("menu-save-script").click();
  const script = await downloading;
  expect(script.suggestedFilename()).toMatch(/\.script\.json$/);
  const scriptPath = await script.path();

  // The replay writes the demo's files afresh, in a session of its own.
  await runInTerminal(page, "rm -r demo");
  await waitForIdle(page);
  await expect(tree(page).getByText("demo", { exact: true })).toBeHidden();
  await menu.click();
  const choosing = page.waitForEvent("filechooser");
  await page.getByTestId("menu-replay-script").click();
  await (await choosing).setFiles(scriptPath);
  await expect(page.getByTestId("session-picker").locator("option")).toHaveCount(2);
  await expect(chatPane(page).getByTestId("user-message")).toContainText("Add a slugify helper");
  await expect(chatPane(page).locator(".markdown table")).toContainText("trims dashes at both ends");
  await expect(tree(page).getByText("demo", { exact: true })).toBeVisible();
  await expect(chatPane(page).getByTestId("tool-part")).toHaveCount(5);

  downloading = page.waitForEvent("download");
  await menu.click();
  await page.getByTestId("menu-export-session").click();
  const exported = await (await downloading).path();
  await menu.click();
  const importing = page.waitForEvent("filechooser");
  await page.getByTestId("menu-import-session").click();
  await (await importing).setFiles(exported);
  await expect(page.getByTestId("session-picker").locator("option")).toHaveCount(3);
  await expect(chatPane(page).getByTestId("assistant-message")).toHaveCount(6);
  await expect(chatPane(page).getByTestId("tool-part").nth(3).getByTestId("diff")).toContainText('.replace(/^-|-$/g, "")');

  // Something that is not a script is refused with the reason.
  await menu.click();
  const wrong = page.waitForEvent("filechooser");
  await page.getByTestId("menu-replay-script").click();
  await (await wrong).setFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": 1}') });
  await expect(page.getByTestId("notice")).toContainText("notes.json: version");
  await page.screenshot({ path: "e2e/screenshots/chat-scripts-dark.png" });
  expect(consoleErrors).toEqual([]);
});

for (const theme of ["dark", "light"] as const) {
  test(`axe (${theme}): the chat after the demo, its session menu and the provider dialog`, async ({ page }) => {
    await openWorkbench(page, freshWorkspace("chat-axe"), "chat");
    await setTheme(page, theme);
    await expect(chatPane(page).getByTestId("chat-welcome")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId("desk-welcome-demo").click();
    await expect(chatPane(page).locator(".markdown table")).toBeVisible();
    await expect(chatPane(page).getByTestId("chat-status")).toHaveAttribute("data-status", "idle");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId("session-menu").click();
    await expect(page.getByRole("menu", { name: "Session actions" })).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/chat-menu-${theme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu", { name: "Session actions" })).toBeHidden();
    await expect(page.getByTestId("session-menu")).toBeFocused();
    await chatPane(page).getByTestId("open-keys").click();
    await page.getByTestId("provider-select").selectOption("+compatible");
    await page.screenshot({ path: `e2e/screenshots/chat-keys-${theme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });
}
