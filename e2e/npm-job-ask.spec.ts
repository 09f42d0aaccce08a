/**
 * An npm install the agent starts in the background asks the webfetch permission as a foreground call does
 * (issue 27): the prompt shows under the call's card while the job runs; Reject fails the job with nothing
 * installed, Allow once installs. The same install typed in the terminal is the person's own and asks nothing.
 */
import { npmDistTags, npmFixtures } from "../test/support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../test/support/npm-registry.js";
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, terminal, test, waitForIdle } from "./fixtures.js";

let registry: NpmRegistry;

test.beforeAll(async () => {
  registry = await startNpmRegistry(npmFixtures, npmDistTags);
});

test.afterAll(async () => {
  await registry?.close();
});

test("a background npm install asks webfetch; a refusal installs nothing; the terminal is not asked", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  await openWorkbench(page, freshWorkspace("npm-job-ask"));
  await runInTerminal(
    page,
    `echo '{"name":"app","version":"1.0.0"}' > package.json && echo 'registry=${registry.url}/' > .npmrc && echo '{"permission": {"webfetch": "ask"}}' > opencode.json`,
  );
  await waitForIdle(page);

  await runTool(page, "bash", { command: "npm install leaf@1.0.0", description: "Installs leaf", background: true });
  await expect(callCard(page, 0)).toContainText("Started in the background as job");
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt).toContainText(`${registry.url}/leaf`);
  await page.screenshot({ path: "e2e/screenshots/npm-job-ask.png" });
  await prompt.getByRole("button", { name: "Reject" }).click();
  const job = page.getByTestId("background-job").first();
  await expect(job).toHaveAttribute("data-state", "failed", { timeout: 30_000 });
  await expect(job.getByTestId("job-output")).toContainText("EFETCHREFUSED");
  await runInTerminal(page, "test -e node_modules && echo node_modules-present || echo node_modules-absent");
  await expect(terminal(page)).toContainText("node_modules-absent");
  await waitForIdle(page);

  await runTool(page, "bash", { command: "npm install leaf@1.0.0", description: "Installs leaf again", background: true });
  await expect(prompt).toContainText(`${registry.url}/leaf`);
  await prompt.getByRole("button", { name: "Allow once" }).click();
  await expect(page.locator('[data-testid=background-job][data-state="completed"]')).toHaveCount(1, { timeout: 30_000 });

  // Stopped while its prompt waits: the prompt goes with the job.
  await runTool(page, "bash", { command: "npm install needs-leaf2", description: "Installs needs-leaf2", background: true });
  await expect(prompt).toContainText(`${registry.url}/needs-leaf2`);
  const running = page.locator('[data-testid=background-job][data-state="running"]');
  await running.getByRole("button", { name: /^Stop / }).click();
  await expect(page.locator('[data-testid=background-job][data-state="stopped"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(prompt).toHaveCount(0);

  // The person's own terminal: no prompt, whatever opencode.json says of webfetch.
  await runInTerminal(page, "npm install tagged && echo installed-by-hand");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("installed-by-hand");
  await expect(prompt).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
