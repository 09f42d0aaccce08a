/**
 * A large npm install shows how far it got while it runs (issue 27): run by the agent's bash tool, its card
 * shows "npm progress" lines while the call is still running; typed into the terminal, the same lines come
 * while the terminal is busy.
 */
import { largeNpmTree } from "../test/support/npm-large-tree.js";
import { startNpmRegistry, type NpmRegistry } from "../test/support/npm-registry.js";
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, terminal, test, waitForIdle } from "./fixtures.js";

let registry: NpmRegistry;
const tree = largeNpmTree();

test.beforeAll(async () => {
  registry = await startNpmRegistry(tree.packages);
});

test.afterAll(async () => {
  await registry?.close();
});

test("a 100-package install shows progress in its card and in the terminal while it runs", async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await openWorkbench(page, freshWorkspace("npm-progress"));
  const manifest = { name: "big-app", version: "1.0.0", dependencies: tree.dependencies };
  await runInTerminal(page, `echo '${JSON.stringify(manifest)}' > package.json && echo 'registry=${registry.url}/' > .npmrc`);
  await waitForIdle(page);

  await runTool(page, "bash", { command: "npm install", description: "Installs the dependencies" });
  const card = callCard(page, 0);
  const live = card.getByTestId("call-live");
  await expect(live).toContainText(/npm progress: (fetched|unpacked) \d+ of 10\d packages/, { timeout: 60_000 });
  await expect(card).toHaveAttribute("data-state", "running");
  await card.screenshot({ path: "e2e/screenshots/npm-progress-card.png" });
  await expect(card).toHaveAttribute("data-state", "completed", { timeout: 120_000 });
  await expect(card.getByTestId("call-output")).toContainText(/added 10\d packages in/);

  await runInTerminal(page, "clear; rm -rf node_modules && npm ci");
  await expect(terminal(page)).toContainText(/npm progress: unpacked \d+ of 10\d packages/, { timeout: 60_000 });
  await waitForIdle(page);
  await expect(terminal(page)).toContainText(/added 10\d packages in/);
  // The progress came while it ran: above the summary npm prints at its end (the install may be done by
  // the time the first line is read, so whether the terminal is still busy proves nothing).
  const screen = await terminal(page).innerText();
  const progress = screen.search(/npm progress: unpacked \d+ of 10\d packages/);
  expect(progress).toBeGreaterThanOrEqual(0);
  expect(progress).toBeLessThan(screen.search(/added 10\d packages in/));
  await page.getByTestId("terminal").screenshot({ path: "e2e/screenshots/npm-progress-terminal.png" });
  expect(consoleErrors).toEqual([]);
});
