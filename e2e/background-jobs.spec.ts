import { callCard, expect, freshWorkspace, openWorkbench, runTool, test } from "./fixtures.js";

test("a background bash job returns at once, shows its output live in the jobs list, and stops on Stop", async ({
  page,
  consoleErrors,
}) => {
  await openWorkbench(page, freshWorkspace("jobs"));
  await runTool(page, "bash", {
    command: "echo server ready; while true; do echo tick; sleep 1; done",
    description: "Runs a server",
    background: true,
  });
  // The call completes while the command runs on.
  await expect(callCard(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(callCard(page, 0)).toContainText("Started in the background as job");
  await expect(callCard(page, 0).getByTestId("call-exit")).toHaveCount(0);
  const jobs = page.getByTestId("background-jobs");
  const job = jobs.getByTestId("background-job");
  await expect(job).toHaveAttribute("data-state", "running");
  await expect(job.getByTestId("job-output")).toContainText("server ready");
  await expect(job.getByTestId("job-output")).toContainText("tick");
  await page.screenshot({ path: "e2e/screenshots/background-jobs.png" });
  await job.getByRole("button", { name: /^Stop / }).click();
  await expect(job).toHaveAttribute("data-state", "stopped", { timeout: 15_000 });
  await expect(job.getByTestId("stop-job")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
