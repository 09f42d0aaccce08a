/**
 * A program's output shows while it runs (issues 26, 28): in a bash card and in the terminal, `node`'s first
 * line is there while the program still waits to print its second; python3's first run says it is loading
 * before the interpreter arrives, then streams the same way.
 */
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, terminal, test, waitForIdle } from "./fixtures.js";

/** Loading Pyodide in a busy machine's Chromium takes a while the first time. */
const FIRST_PYTHON_MS = 120_000;

test("a running node program's first line is in its card before the program ends", async ({ page, consoleErrors }) => {
  await openWorkbench(page, freshWorkspace("live-node"));
  await runInTerminal(page, `printf 'console.log("first line");\\nsetTimeout(() => console.log("second line"), 4000);\\n' > slow.js`);
  await waitForIdle(page);
  await runTool(page, "bash", { command: "node slow.js", description: "Prints twice, slowly" });
  const card = callCard(page, 0);
  const live = card.getByTestId("call-live");
  await expect(live).toContainText("first line");
  await expect(card).toHaveAttribute("data-state", "running");
  await expect(live).not.toContainText("second line");
  await page.screenshot({ path: "e2e/screenshots/live-node-card.png" });
  await expect(card).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  await expect(card.getByTestId("call-output")).toContainText("second line");
  expect(consoleErrors).toEqual([]);
});

test("in the terminal, node streams, and python3's first run says it is loading, then streams", async ({ page }) => {
  test.setTimeout(FIRST_PYTHON_MS + 60_000);
  await openWorkbench(page, freshWorkspace("live-terminal"));
  // What the program prints is not written as such in the command line, which the terminal shows too.
  await runInTerminal(page, `node -e 'console.log("node", "says hi"); setTimeout(() => console.log("node", "done"), 4000)'`);
  await expect(terminal(page)).toContainText("node says hi");
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  await expect(terminal(page)).not.toContainText("node done");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("node done");

  await runInTerminal(page, `python3 -c 'import time; print("py", "first", flush=True); time.sleep(4); print("py", "second")'`);
  // Said before the interpreter is there: no output of the program yet.
  await expect(terminal(page)).toContainText("loading the Python interpreter (first run only)");
  await expect(terminal(page)).toContainText("py first", { timeout: FIRST_PYTHON_MS });
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  await expect(terminal(page)).not.toContainText("py second");
  await page.getByTestId("terminal").screenshot({ path: "e2e/screenshots/live-python-terminal.png" });
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("py second");
});
