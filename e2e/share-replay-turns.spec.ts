/**
 * Replaying a shared session: every turn, in order, with its calls (issue 30.3: a 6-turn, 8-call session
 * replayed as 1 turn and 1 call), and a transcript's network call waits for the visitor (issue 25.12: a
 * replayed webfetch reached its author's server with no prompt). A loopback server logs what it hears.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { encodeShareLink } from "../src/embed/share/index.js";
import { type RecordedTurn, recordedSession } from "./recorded-session.js";
import { startWebServer, type WebServer } from "../test/support/web-server.js";
import { expect, test } from "./fixtures.js";

async function replay(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByTestId("tab-chat").click();
  await expect(page.getByTestId("share-replay-start")).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId("share-replay-speed").selectOption("0");
  await page.getByTestId("share-replay-start").click();
  await expect(page.getByTestId("session-picker").locator("option")).toHaveCount(2, { timeout: 30_000 });
}

test("a shared 6-turn, 8-call session replays every turn, in order, with its calls", async ({ page, baseURL }) => {
  const files = { "a.txt": "alpha\n", "src/b.ts": "export const beta = 2;\n", "src/c.ts": "export const gamma = 3;\n" };
  const turns: RecordedTurn[] = [
    { prompt: "first: read a.txt", calls: [{ tool: "read", input: { filePath: "a.txt" } }] },
    { prompt: "second: list the folder", calls: [{ tool: "list", input: {} }] },
    {
      prompt: "third: find the ts files and grep beta",
      calls: [
        { tool: "glob", input: { pattern: "**/*.ts" } },
        { tool: "grep", input: { pattern: "beta" } },
      ],
    },
    { prompt: "fourth: read b", calls: [{ tool: "read", input: { filePath: "src/b.ts" } }] },
    {
      prompt: "fifth: read c and grep gamma",
      calls: [
        { tool: "read", input: { filePath: "src/c.ts" } },
        { tool: "grep", input: { pattern: "gamma" } },
      ],
    },
    { prompt: "sixth: read a again", calls: [{ tool: "read", input: { filePath: "a.txt" } }] },
  ];
  const link = await encodeShareLink({ name: "Six turns", files, session: recordedSession("Six turns", turns) }, `${baseURL}/`);
  await replay(page, link);
  const transcript = page.getByTestId("chat-transcript");
  await expect(transcript).toContainText("Turn 6 done.", { timeout: 30_000 });
  await expect(page.getByTestId("chat-status")).toHaveAttribute("data-status", "idle", { timeout: 30_000 });
  await expect(transcript).toHaveAttribute("data-messages", String(6 + 8 + 6));
  // "Save as script" of the replayed session keeps every person's message, in order, with the calls answering each.
  const downloading = page.waitForEvent("download");
  await page.getByTestId("session-menu").click();
  await page.getByTestId("menu-save-script").click();
  const saved = JSON.parse(await readFile(await (await downloading).path(), "utf8")) as {
    prompt: string;
    steps: { toolCalls?: { tool: string }[] }[];
    turns?: { prompt: string; steps: { toolCalls?: { tool: string }[] }[] }[];
  };
  const savedTurns = [{ prompt: saved.prompt, steps: saved.steps }, ...(saved.turns ?? [])];
  expect(savedTurns.map((turn) => turn.prompt)).toEqual(turns.map((turn) => turn.prompt));
  expect(savedTurns.map((turn) => turn.steps.flatMap((step) => step.toolCalls?.map((call) => call.tool) ?? []))).toEqual(
    turns.map((turn) => turn.calls.map((call) => call.tool)),
  );
  // Every call, run for real in this workspace, in the recorded order.
  await page.getByTestId("tab-tools").click();
  const cards = page.getByTestId("call-card");
  await expect(cards).toHaveCount(8);
  const tools = await cards.evaluateAll((all) => all.map((card) => card.getAttribute("data-tool")));
  expect(tools).toEqual(turns.flatMap((turn) => turn.calls.map((call) => call.tool)));
  for (let i = 0; i < 8; i++) await expect(cards.nth(i)).toHaveAttribute("data-state", "completed");
  await page.screenshot({ path: "e2e/screenshots/share-replay-turns.png" });
});

test.describe("a replayed webfetch", () => {
  let author: WebServer;
  test.beforeAll(async () => {
    author = await startWebServer({
      "/collect": (_q, r) => r.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" }).end("thanks"),
    });
  });
  test.afterAll(async () => {
    await author.close();
  });

  test("reaches the author's server only after the visitor allows it", async ({ page, baseURL }) => {
    const url = `${author.url}/collect?from=replay`;
    const link = await encodeShareLink(
      {
        name: "Fetching",
        files: { "README.md": "# Read me\n" },
        session: recordedSession("Fetching", [
          { prompt: "read the README", calls: [{ tool: "webfetch", input: { url, format: "text" } }] },
        ]),
      },
      `${baseURL}/`,
    );
    await replay(page, link);
    const prompt = page.getByTestId("chat-transcript").getByTestId("permission-prompt");
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await expect(prompt).toContainText("webfetch");
    await expect(prompt).toContainText(url);
    await page.waitForTimeout(500);
    expect(author.requests).toHaveLength(0);
    await page.screenshot({ path: "e2e/screenshots/share-replay-webfetch-asks.png" });
    await prompt.getByRole("button", { name: /allow once/i }).click();
    await expect(page.getByTestId("chat-transcript")).toContainText("Turn 1 done.", { timeout: 30_000 });
    expect(author.requests.map((request) => request.path)).toEqual(["/collect"]);
  });
});
