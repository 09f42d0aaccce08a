import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";

const unique = () => `e2e-sessions-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
/** Saved in IndexedDB: the point of these tests is what survives a reload. */
const saved = () => `?workspace=${unique()}`;

/** The live output saved with the workspace's calls, as one text (read straight from IndexedDB). */
function savedOutputs(page: Page, workspace: string): Promise<string> {
  return page.evaluate(
    (name) =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction("records", "readonly").objectStore("records").getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            open.result.close();
            const outputs = (all.result as string[]).map((text) => {
              if (!text.startsWith("{")) return ""; // the current session's id
              const record = JSON.parse(text) as { metadata?: { output?: unknown } };
              return typeof record.metadata?.output === "string" ? record.metadata.output : "";
            });
            resolve(outputs.join("\n"));
          };
        };
      }),
    `workbench-sessions:${workspace}`,
  );
}

const cards = (page: Page) => page.getByTestId("call-card");
const card = (page: Page, index: number) => cards(page).nth(index);
const picker = (page: Page) => page.getByLabel("Session", { exact: true });
const selectedTitle = (page: Page) => picker(page).locator("option:checked");

async function importCalls(page: Page, name: string, content: string) {
  await page.getByLabel("Replay a calls file").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(content) });
}

test("after a reload the session is there: its cards with their output, and the file the tool wrote", async ({ page, consoleErrors }) => {
  await openWorkbench(page, saved());
  await runTool(page, "write", { filePath: "kept.txt", content: "written by a tool" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await runTool(page, "bash", { command: "cat kept.txt", description: "Shows the file" });
  await expect(card(page, 1).getByTestId("call-output")).toContainText("written by a tool");
  const sessionTitle = await selectedTitle(page).innerText();

  await page.reload();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await expect(cards(page)).toHaveCount(2);
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 0).getByTestId("call-output")).toHaveText("Wrote file successfully.");
  await expect(card(page, 1).getByTestId("call-output")).toContainText("written by a tool");
  await expect(card(page, 1).getByTestId("call-exit")).toHaveText("exit 0");
  await expect(selectedTitle(page)).toHaveText(sessionTitle);
  await expect(page.getByTestId("session-count")).toHaveText("2 calls");
  const tree = page.getByRole("navigation", { name: "Workspace files" });
  await expect(tree.getByText("kept.txt", { exact: true })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/sessions-after-reload.png" });

  // The reopened session takes new calls, after the saved ones.
  await runTool(page, "read", { filePath: "kept.txt" });
  await expect(card(page, 2).getByTestId("call-output")).toContainText("written by a tool");
  expect(consoleErrors).toEqual([]);
});

test("two sessions: New session starts empty, the picker switches between them, and the choice survives a reload", async ({ page }) => {
  await openWorkbench(page, saved());
  await runTool(page, "bash", { command: "echo from-the-first", description: "First" });
  await expect(card(page, 0).getByTestId("call-output")).toContainText("from-the-first");
  await expect(selectedTitle(page)).toHaveText("Session 1");

  await page.getByRole("button", { name: "New session" }).click();
  await expect(selectedTitle(page)).toHaveText("Session 2");
  await expect(cards(page)).toHaveCount(0);
  await runTool(page, "bash", { command: "echo from-the-second", description: "Second" });
  await expect(card(page, 0).getByTestId("call-output")).toContainText("from-the-second");

  await page.getByRole("button", { name: "Rename" }).click();
  await page.getByLabel("Session name").fill("Second look");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(selectedTitle(page)).toHaveText("Second look");

  await picker(page).selectOption({ label: "Session 1" });
  await expect(cards(page)).toHaveCount(1);
  await expect(card(page, 0).getByTestId("call-output")).toContainText("from-the-first");
  await page.screenshot({ path: "e2e/screenshots/sessions-switched.png" });

  await page.reload();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await expect(selectedTitle(page)).toHaveText("Session 1");
  await expect(picker(page).locator("option")).toHaveText(["Session 1", "Second look"]);
  await expect(card(page, 0).getByTestId("call-output")).toContainText("from-the-first");
  await picker(page).selectOption({ label: "Second look" });
  await expect(card(page, 0).getByTestId("call-output")).toContainText("from-the-second");

  await page.getByRole("button", { name: "Delete session" }).click();
  await page.getByRole("group", { name: "Confirm deletion" }).getByRole("button", { name: "Delete" }).click();
  await expect(picker(page).locator("option")).toHaveText(["Session 1"]);
  await expect(card(page, 0).getByTestId("call-output")).toContainText("from-the-first");
});

test("a session left waiting on a prompt says so in the picker, and the prompt is there on switching back", async ({ page }) => {
  await openWorkbench(page, `?workspace=${unique()}&memory=1`);
  await runInTerminal(page, `echo '{"permission":{"edit":"ask"}}' > opencode.json`);
  await waitForIdle(page);
  await page.getByRole("button", { name: "New session" }).click();
  await expect(selectedTitle(page)).toHaveText("Session 2");
  await runTool(page, "write", { filePath: "later.txt", content: "written after all\n" });
  await expect(page.getByTestId("permission-prompt")).toBeVisible();
  await page.getByRole("button", { name: "New session" }).click();
  await expect(selectedTitle(page)).toHaveText("Session 3");
  await expect(page.getByTestId("permission-prompt")).toBeHidden();
  await expect(picker(page).locator("option")).toHaveText(["Session 1", "Session 2 (1 waiting for you)", "Session 3"]);
  await picker(page).selectOption({ label: "Session 2 (1 waiting for you)" });
  const prompt = page.getByTestId("permission-prompt");
  await prompt.getByRole("button", { name: "Allow once" }).click();
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(picker(page).locator("option")).toHaveText(["Session 1", "Session 2", "Session 3"]);
});

test("a calls file replays call by call, waiting at a permission prompt, with its progress shown", async ({ page, consoleErrors }) => {
  await openWorkbench(page, `?workspace=${unique()}&memory=1`);
  await runInTerminal(page, `echo '{"permission":{"edit":"ask"}}' > opencode.json`);
  await waitForIdle(page);
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  const calls = [
    { tool: "bash", args: { command: "echo before", description: "Before" } },
    { tool: "write", args: { filePath: "replayed.txt", content: "from the replay\n" } },
    { tool: "read", args: { filePath: "replayed.txt" } },
  ];
  await importCalls(page, "calls.json", JSON.stringify(calls));
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt).toBeVisible();
  await expect(page.getByTestId("replay-status")).toHaveText("Replaying calls.json: 2 of 3");
  await expect(cards(page)).toHaveCount(2);
  await expect(card(page, 1)).toHaveAttribute("data-state", "pending permission");
  await expect(prompt.getByTestId("diff")).toContainText("+from the replay");
  await page.screenshot({ path: "e2e/screenshots/sessions-replay-prompt.png" });
  await prompt.getByRole("button", { name: "Allow once" }).click();

  await expect(page.getByTestId("replay-status")).toHaveText("Replayed calls.json: 3 of 3");
  await expect(cards(page)).toHaveCount(3);
  await expect(card(page, 0).getByTestId("call-output")).toContainText("before");
  await expect(card(page, 1)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 2).getByTestId("call-output")).toContainText("from the replay");
  await page.screenshot({ path: "e2e/screenshots/sessions-replay-done.png" });
  expect(consoleErrors).toEqual([]);
});

test("a file that is not a calls list is refused with the reason, and nothing runs", async ({ page }) => {
  await openWorkbench(page, `?workspace=${unique()}&memory=1`);
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await importCalls(page, "broken.json", '[{"tool":"bash","args":{"command":"echo no"}},{"args":{}}]');
  await expect(page.getByTestId("replay-error")).toContainText('Nothing was replayed: call 2 has no "tool" string');
  await expect(page.getByTestId("replay-error")).toContainText("broken.json must hold a JSON array");
  await importCalls(page, "notes.json", "not json at all");
  await expect(page.getByTestId("replay-error")).toContainText("Nothing was replayed: notes.json is not valid JSON");
  await expect(page.getByTestId("replay-error")).toContainText("Choose a file like the ones `workbench calls` reads");
  await page.screenshot({ path: "e2e/screenshots/sessions-replay-invalid.png" });
  await importCalls(page, "empty.json", "[]");
  await expect(page.getByTestId("replay-error")).toContainText("Nothing was replayed: empty.json holds no calls.");
  await expect(cards(page)).toHaveCount(0);
});

test("Stop replay aborts the call under way and runs no more", async ({ page }) => {
  await openWorkbench(page, `?workspace=${unique()}&memory=1`);
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  const calls = [
    { tool: "bash", args: { command: "echo waiting; sleep 30", description: "Sleeps" } },
    { tool: "bash", args: { command: "echo never", description: "Never runs" } },
  ];
  await importCalls(page, "slow.json", JSON.stringify(calls));
  await expect(card(page, 0)).toHaveAttribute("data-state", "running");
  await expect(page.getByTestId("replay-status")).toHaveText("Replaying slow.json: 1 of 2");
  await page.getByRole("button", { name: "Stop replay" }).click();
  await expect(card(page, 0)).toHaveAttribute("data-state", "aborted");
  await expect(page.getByTestId("replay-status")).toHaveText("Replay of slow.json stopped at 1 of 2");
  await expect(cards(page)).toHaveCount(1);
});

test("a call running at a reload comes back as interrupted, with the output it had streamed", async ({ page }) => {
  const workspace = unique();
  await openWorkbench(page, `?workspace=${workspace}`);
  await runTool(page, "bash", { command: "echo started; sleep 30", description: "Sleeps through the reload" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "running");
  await expect(card(page, 0).getByTestId("call-live")).toContainText("started");
  // Streamed output is saved within a second or so; wait until IndexedDB holds it, then reload.
  await expect.poll(() => savedOutputs(page, workspace), { timeout: 10_000 }).toContain("started");
  await page.reload();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await expect(card(page, 0)).toHaveAttribute("data-state", "interrupted");
  await expect(card(page, 0).getByTestId("call-error")).toContainText("Interrupted: the page was closed");
  await expect(card(page, 0).getByTestId("call-live")).toContainText("started");
  await expect(card(page, 0).getByRole("button", { name: "Abort" })).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/sessions-interrupted.png" });
});

test("two workspaces keep their sessions apart", async ({ page }) => {
  const first = unique();
  await openWorkbench(page, `?workspace=${first}`);
  await runTool(page, "bash", { command: "echo only-in-first", description: "First workspace" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await openWorkbench(page, `?workspace=${unique()}`);
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await expect(cards(page)).toHaveCount(0);
  await expect(picker(page).locator("option")).toHaveCount(1);
  await openWorkbench(page, `?workspace=${first}`);
  await expect(card(page, 0).getByTestId("call-output")).toContainText("only-in-first");
});

test("the session and replay bars pass an axe scan (no serious or critical violations), renaming and confirming included", async ({
  page,
}) => {
  await openWorkbench(page, `?workspace=${unique()}&memory=1`);
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await importCalls(page, "bad.json", "{}");
  await expect(page.getByTestId("replay-error")).toBeVisible();
  const scan = async () => {
    const result = await new AxeBuilder({ page }).include(".tools-bars").analyze();
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
  };
  expect(await scan()).toEqual([]);
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByLabel("Session name")).toBeFocused();
  await page.getByRole("button", { name: "Delete session" }).click();
  await expect(page.getByRole("group", { name: "Confirm deletion" })).toBeVisible();
  expect(await scan()).toEqual([]);
  await page.screenshot({ path: "e2e/screenshots/sessions-confirm-delete.png" });
  await page.getByRole("button", { name: "Keep" }).click();
  await expect(picker(page).locator("option")).toHaveCount(1);
});
