/**
 * Code Mode in the page: with `workbench.experimentalCodeMode` on, a scripted model (a local
 * OpenAI-compatible server answering step by step) sends one execute call whose program reads a file and
 * greps the workspace; the chat shows the execute card with each inner call as a card of its own under it,
 * and the model gets the program's printed result back. A program that spins without calling a tool runs in
 * its own worker: the page keeps drawing frames, and Stop ends it at once.
 */
import type { Page } from "@playwright/test";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";
import { addLocalProvider } from "./local-provider.js";

const chatPane = (page: Page) => page.getByTestId("chat-pane");

/** The tool results the model was sent in request `index`. */
function toolResults(server: ProviderServer, index: number): string {
  const body = server.requests[index]!.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

/** The tools the model was offered in request `index`. */
function offeredTools(server: ProviderServer, index: number): string[] {
  const body = server.requests[index]!.body as { tools?: Array<{ function: { name: string } }> };
  return (body.tools ?? []).map((tool) => tool.function.name);
}

const PROGRAM = `
const notes = await tools.read({ filePath: "notes.md" });
const hits = await tools.grep({ pattern: "FIXME" });
console.log("notes: " + notes.split("\\n").filter((line) => line.includes("- [ ]")).length + " open");
console.log(hits.split("\\n")[0]);
`;

test.describe("Code Mode with a scripted model", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("an execute program reads and greps; its inner calls show as cards under the execute card", async ({ page, consoleErrors }) => {
    await openWorkbench(page, freshWorkspace("code-mode"), "chat");
    await runInTerminal(
      page,
      `printf -- '- [ ] one\\n- [x] two\\n- [ ] three\\n' > notes.md && echo '// FIXME later' > app.js && echo '{"workbench": {"experimentalCodeMode": true}}' > opencode.json`,
    );
    await waitForIdle(page);
    // A new session reads opencode.json again.
    await page.getByRole("button", { name: "New session" }).click();
    await addLocalProvider(page, server.openaiBaseURL, "sk-code-mode");
    server.enqueue({ step: { toolCalls: [{ name: "execute", input: { code: PROGRAM } }] } }, { step: { text: "Two open, one FIXME." } });
    const input = chatPane(page).getByTestId("prompt-input");
    await input.fill("how much is left?");
    await input.press("Enter");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("Two open, one FIXME.");

    expect(offeredTools(server, 0)).toContain("execute");
    const execute = chatPane(page).locator("[data-tool=execute]").first();
    await expect(execute).toContainText("execute (2 tool calls)");
    const nested = chatPane(page).getByTestId("batch-calls").getByTestId("call-card");
    await expect(nested).toHaveCount(2);
    await expect(nested.nth(0)).toHaveAttribute("data-tool", "read");
    await expect(nested.nth(1)).toHaveAttribute("data-tool", "grep");
    await expect(nested.nth(0)).toHaveAttribute("data-state", "completed");
    await expect(nested.nth(1)).toHaveAttribute("data-state", "completed");
    expect(toolResults(server, 1)).toContain("notes: 2 open\nFound 1 matches");
    await execute.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/code-mode.png" });
    expect(consoleErrors).toEqual([]);
  });

  test("a program spinning in its worker leaves the page drawing, and Stop ends it within a second", async ({ page, consoleErrors }) => {
    await openWorkbench(page, freshWorkspace("code-mode-stop"), "chat");
    await runInTerminal(page, `echo '{"workbench": {"experimentalCodeMode": true}}' > opencode.json`);
    await waitForIdle(page);
    await page.getByRole("button", { name: "New session" }).click();
    await addLocalProvider(page, server.openaiBaseURL, "sk-code-mode");
    // Each turn trims a million spaces in one step, a character at a time: far more work than Stop allows
    // before the step limit (a fast scan per turn reached the limit within a second).
    const spin = `const text = " ".repeat(999999); let turns = 0; while (true) { if (text.trim() !== "") break; turns++; }`;
    server.enqueue({ step: { toolCalls: [{ name: "execute", input: { code: spin } }] } });
    const input = chatPane(page).getByTestId("prompt-input");
    await input.fill("spin");
    await input.press("Enter");
    const execute = chatPane(page).locator("[data-tool=execute]").first();
    await expect(execute).toHaveAttribute("data-state", "running");

    // The page's frames while the program spins, from requestAnimationFrame.
    await page.evaluate(() => {
      const frames: number[] = [];
      (window as unknown as { frames_: number[] }).frames_ = frames;
      const draw = (time: number) => {
        frames.push(time);
        if (frames.length < 10_000) requestAnimationFrame(draw);
      };
      requestAnimationFrame(draw);
    });
    await page.waitForTimeout(1_000);
    const frames = await page.evaluate(() => (window as unknown as { frames_: number[] }).frames_);
    const longest = Math.max(...frames.slice(1).map((time, i) => time - frames[i]!));
    expect(frames.length).toBeGreaterThan(20);
    expect(longest).toBeLessThan(200);

    const stoppedAt = Date.now();
    await chatPane(page).getByTestId("stop").click();
    await expect(execute).not.toHaveAttribute("data-state", "running", { timeout: 1_000 });
    expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    await expect(execute).toContainText("the call was aborted");
    expect(consoleErrors).toEqual([]);
  });

  test("a program's worker that cannot load ends the call with an error that says so", async ({ page }) => {
    await openWorkbench(page, freshWorkspace("code-mode-no-worker"), "chat");
    await runInTerminal(page, `echo '{"workbench": {"experimentalCodeMode": true}}' > opencode.json`);
    await waitForIdle(page);
    await page.getByRole("button", { name: "New session" }).click();
    await addLocalProvider(page, server.openaiBaseURL, "sk-code-mode");
    // The worker's script is unreachable (a deployment replaced under an open tab, say).
    await page.route(/program\.worker/, (route) => route.abort());
    server.enqueue(
      { step: { toolCalls: [{ name: "execute", input: { code: `return "ran";` } }] } },
      { step: { text: "It could not run." } },
    );
    const input = chatPane(page).getByTestId("prompt-input");
    await input.fill("try");
    await input.press("Enter");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("It could not run.");
    const execute = chatPane(page).locator("[data-tool=execute]").first();
    await expect(execute).toHaveAttribute("data-state", "error");
    await expect(execute).toContainText("Code Mode could not start the worker that runs programs (the worker's script did not load)");
    expect(toolResults(server, 1)).toContain("Code Mode could not start the worker that runs programs");
    await execute.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/code-mode-no-worker.png" });
  });
});
