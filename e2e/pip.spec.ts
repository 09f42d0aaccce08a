/**
 * pip in the built page (issue 28): in the terminal, `pip install` reads a loopback index of wheels built
 * on this machine (served with CORS, as PyPI's are), installs into the workspace's .venv, and python3 (Pyodide
 * from our own origin) imports what it installed; `pip list` and `pip show` describe it. Offline, pip says so
 * and fetches nothing.
 */
import { startPipIndex, type PipIndex } from "../test/support/pip-index.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, screenLines, terminal, test } from "./fixtures.js";

/** Loading Pyodide in a busy machine's Chromium takes a while the first time. */
const FIRST_RUN_MS = 120_000;

let index: PipIndex;

test.beforeAll(async () => {
  index = await startPipIndex();
});

test.afterAll(async () => {
  await index?.close();
});

test("pip install from an index in the terminal, then python3 imports it; offline, pip says so", async ({ page, consoleErrors }) => {
  test.setTimeout(FIRST_RUN_MS + 60_000);
  await openWorkbench(page, freshWorkspace("pip"));
  await runInTerminal(page, `pip install -i ${index.url} tinyx`);
  await expect(terminal(page)).toContainText("Successfully installed helperlib-1.2 tinyx-1.0", { timeout: 30_000 });
  await expect(page.locator("[data-testid=terminal][data-busy]")).toHaveCount(0);
  await runInTerminal(page, "python3 -c 'import tinyx; print(\"answer\", tinyx.answer())' && pip list && pip show tinyx | head -3");
  await expect(terminal(page)).toContainText("answer 42", { timeout: FIRST_RUN_MS });
  await expect(page.locator("[data-testid=terminal][data-busy]")).toHaveCount(0, { timeout: 30_000 });
  const screen = (await screenLines(page)).join("\n");
  expect(screen).toMatch(/helperlib\s+1\.2/);
  expect(screen).toMatch(/tinyx\s+1\.0/);
  expect(screen).toContain("Summary: A tiny test package");
  await page.getByTestId("terminal").screenshot({ path: "e2e/screenshots/pip-install.png" });

  // Offline: pip says so and fetches nothing; what is installed still imports.
  const asked = index.requestedPaths().length;
  await page.context().setOffline(true);
  await runInTerminal(page, `clear; pip install -i ${index.url} -U helperlib; python3 -c 'import tinyx; print("still", tinyx.answer())'`);
  await expect(terminal(page)).toContainText("still 42", { timeout: 30_000 });
  // Rows joined as they wrap on the screen.
  expect((await screenLines(page)).join("")).toContain("ERROR: You are offline: pip install fetches packages from an index");
  expect(index.requestedPaths().length).toBe(asked);
  await page.context().setOffline(false);
  expect(consoleErrors).toEqual([]);
});
