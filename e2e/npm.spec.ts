/**
 * npm in the built page (issue 27): in the terminal, a project installs from a registry stand-in on
 * loopback (real tarballs from `npm pack`, served with CORS as the public registry serves them) and
 * runs `npm test`; then the agent's bash tool lists the tree with `npm ls --all`.
 */
import { npmDistTags, npmFixtures } from "../test/support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../test/support/npm-registry.js";
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, screenLines, test, waitForIdle } from "./fixtures.js";

let registry: NpmRegistry;

test.beforeAll(async () => {
  registry = await startNpmRegistry(npmFixtures, npmDistTags);
});

test.afterAll(async () => {
  await registry?.close();
});

test("npm install from a registry, then npm test, in the terminal and by the agent", async ({ page, consoleErrors }) => {
  await openWorkbench(page, freshWorkspace("npm"));
  const manifest = { name: "e2e-app", version: "1.0.0", scripts: { test: "echo tests pass in $npm_package_name" } };
  await runInTerminal(page, `echo '${JSON.stringify(manifest)}' > package.json && echo 'registry=${registry.url}/' > .npmrc`);
  await waitForIdle(page);
  await runInTerminal(page, "npm install with-deps tool-bin");
  await waitForIdle(page);
  await expect.poll(async () => (await screenLines(page)).join("\n"), { timeout: 30_000 }).toMatch(/added 5 packages in/);
  expect((await screenLines(page)).join("\n")).toContain("skipped install scripts");
  await runInTerminal(page, "npm test");
  await waitForIdle(page);
  await expect.poll(async () => (await screenLines(page)).join("\n")).toContain("tests pass in e2e-app");
  await page.screenshot({ path: "e2e/screenshots/npm-terminal.png" });

  await runTool(page, "bash", { command: "npm ls --all", description: "Lists the installed tree" });
  const card = callCard(page, 0);
  await expect(card).toHaveAttribute("data-state", "completed", { timeout: 30_000 });
  await expect(card).toContainText("with-deps@1.0.0");
  await expect(card).toContainText("@scope/util@1.2.0");
  await card.screenshot({ path: "e2e/screenshots/npm-card.png" });
  expect(consoleErrors).toEqual([]);
});
