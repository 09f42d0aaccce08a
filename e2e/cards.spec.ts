import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";

const fresh = () => freshWorkspace("cards");

const card = callCard;

test("a running bash card shows its lines as they come, before the call ends, and leaves the other cards untouched", async ({
  page,
  consoleErrors,
}) => {
  await openWorkbench(page, fresh());
  await runTool(page, "bash", { command: "echo an earlier call", description: "Prints once" });
  const earlier = card(page, 0);
  await expect(earlier).toHaveAttribute("data-state", "completed");
  // Updates are per call: while another call streams, this card's DOM must not change at all.
  await earlier.evaluate((element) => {
    const seen = { count: 0 };
    (window as unknown as { __earlierMutations: typeof seen }).__earlierMutations = seen;
    new MutationObserver((records) => (seen.count += records.length)).observe(element, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  await runTool(page, "bash", {
    command: "echo first line; sleep 2; echo second line; sleep 2; echo third line",
    description: "Prints slowly",
  });
  const streaming = card(page, 1);
  const live = streaming.getByTestId("call-live");
  await expect(live).toContainText("first line");
  await expect(streaming).toHaveAttribute("data-state", "running");
  await expect(live).not.toContainText("third line");
  await page.screenshot({ path: "e2e/screenshots/cards-live.png" });
  await expect(streaming).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  await expect(streaming.getByTestId("call-output")).toContainText("third line");
  expect(await page.evaluate(() => (window as unknown as { __earlierMutations: { count: number } }).__earlierMutations.count)).toBe(0);
  expect(consoleErrors).toEqual([]);
});

test("past the live limit a running card follows the latest lines and says how much came before", async ({ page }) => {
  await openWorkbench(page, fresh());
  // 38,894 characters first (over the 30,000 the live head holds), then more while the call still runs.
  await runTool(page, "bash", { command: "seq 1 8000; sleep 1; seq 8001 9000; sleep 30", description: "Prints past the limit" });
  const running = card(page, 0);
  const live = running.getByTestId("call-live");
  await expect(running.getByTestId("call-live-skipped")).toContainText("earlier characters are not shown live");
  await expect(live).toContainText("9000");
  await expect(running).toHaveAttribute("data-state", "running");
  await page.screenshot({ path: "e2e/screenshots/cards-live-tail.png" });
  await running.getByRole("button", { name: /Abort/ }).click();
  await expect(running).toHaveAttribute("data-state", "aborted");
});

test("10,000 lines: the card keeps a few hundred line nodes at most, the notice opens the full output down to its last line", async ({
  page,
  consoleErrors,
}) => {
  await openWorkbench(page, fresh());
  await runTool(page, "bash", { command: "seq 1 10000", description: "Counts to ten thousand" });
  const first = card(page, 0);
  await expect(first).toHaveAttribute("data-state", "completed", { timeout: 30_000 });
  await expect(first.getByTestId("call-truncated")).toContainText("Output truncated.");
  await expect(first.getByTestId("call-truncated")).toContainText("/data/tool-output/tool_");
  const output = first.getByTestId("call-output");
  expect(Number(await output.getAttribute("data-lines"))).toBeGreaterThan(2000);
  expect(await page.locator(".vline").count()).toBeLessThan(300);

  await first.getByRole("button", { name: "Open full output" }).click();
  const viewer = first.getByTestId("saved-output-lines");
  await expect(viewer).toHaveAttribute("data-lines", "10000");
  expect(await page.locator(".vline").count()).toBeLessThan(400);
  // Still responsive: scrolling to the end draws the last line, and the page answers keys.
  await viewer.evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
  await expect(viewer.locator(".vline", { hasText: /^10000$/ })).toBeVisible();
  expect(await page.locator(".vline").count()).toBeLessThan(400);
  await page.screenshot({ path: "e2e/screenshots/cards-full-output.png" });
  const download = page.waitForEvent("download");
  await first.getByTestId("download-output").click();
  expect((await download).suggestedFilename()).toMatch(/^tool_[0-9a-z]+\.txt$/);
  await page.keyboard.press("Control+k");
  await expect(page.getByTestId("tool-palette")).toBeVisible();
  await page.keyboard.press("Escape");
  expect(consoleErrors).toEqual([]);
});

test("a streaming card follows the tail until the user scrolls up", async ({ page }) => {
  await openWorkbench(page, fresh());
  const statements = Array.from({ length: 12 }, (_, i) => `seq ${i * 20 + 1} ${i * 20 + 20}; sleep 0.4`).join("; ");
  await runTool(page, "bash", { command: statements, description: "Prints in bursts" });
  const live = card(page, 0).getByTestId("call-live");
  await expect.poll(async () => Number(await live.getAttribute("data-lines"))).toBeGreaterThan(40);
  const atBottom = () => live.evaluate((box) => box.scrollTop + box.clientHeight >= box.scrollHeight - 20);
  await expect.poll(atBottom).toBe(true);
  await live.evaluate((box) => box.scrollTo({ top: 0 }));
  const seen = Number(await live.getAttribute("data-lines"));
  await expect.poll(async () => Number(await live.getAttribute("data-lines"))).toBeGreaterThan(seen + 20);
  expect(await live.evaluate((box) => box.scrollTop)).toBe(0);
});

test("an edit's card switches between the unified and the side-by-side diff", async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openWorkbench(page, fresh());
  await runInTerminal(page, "printf 'alpha\\nbeta\\ngamma\\n' > notes.txt");
  await waitForIdle(page);
  await runTool(page, "read", { filePath: "notes.txt" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await runTool(page, "edit", { filePath: "notes.txt", oldString: "beta", newString: "BETA <b>bold</b>" });
  const edit = card(page, 1);
  await expect(edit).toHaveAttribute("data-state", "completed");
  await expect(edit.getByTestId("diff")).toContainText("+BETA <b>bold</b>");
  await edit.getByRole("button", { name: "Side by side" }).click();
  const table = edit.getByTestId("diff-sbs");
  await expect(table).toBeVisible();
  const changed = table.getByTestId("diff-row").filter({ hasText: "BETA" });
  await expect(changed.locator("td")).toHaveText(["2", "beta", "2", "BETA <b>bold</b>"]);
  await expect(edit.locator("b")).toHaveCount(0);
  // At 1024 px the side-by-side view fits its card (it scrolls inside itself).
  const [cardBox, tableBox] = await Promise.all([edit.boundingBox(), table.boundingBox()]);
  expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width + 1);
  await edit.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "e2e/screenshots/cards-side-by-side.png" });
  expect(consoleErrors).toEqual([]);
});

test("reading a png shows it as an image from a data: URL, with its name as alt text", async ({ page, consoleErrors }) => {
  await openWorkbench(page, fresh());
  const png = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAIUlEQVR4nGO4YxOFFcnhQAyjGmijYUEUViSHA41qoIkGABVARRD0Ztm2AAAAAElFTkSuQmCC";
  await runInTerminal(page, `echo ${png} | base64 -d > logo.png`);
  await waitForIdle(page);
  await runTool(page, "read", { filePath: "logo.png" });
  const first = card(page, 0);
  await expect(first).toHaveAttribute("data-state", "completed");
  const image = first.getByRole("img", { name: "logo.png" });
  await expect(image).toBeVisible();
  expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(16);
  await page.screenshot({ path: "e2e/screenshots/cards-image.png" });
  expect(consoleErrors).toEqual([]);
});
