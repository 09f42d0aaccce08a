import type { Page } from "@playwright/test";
import { callCard, expect, freshWorkspace, openWorkbench, runTool, test } from "./fixtures.js";

async function openSettings(page: Page) {
  await expect(page.getByTestId("open-settings")).toBeEnabled();
  await page.getByTestId("open-settings").click();
  const settings = page.getByTestId("settings");
  await expect(settings).toBeVisible();
  return settings;
}

test("a V2 opencode.json: the page offers shell, Settings shows and saves its permissions list in V2's words", async ({
  page,
  consoleErrors,
}) => {
  await openWorkbench(page, freshWorkspace("settings-v2"));
  const config = JSON.stringify({ permissions: [{ action: "shell", resource: "rm *", effect: "deny" }] });
  await runTool(page, "write", { filePath: "opencode.json", content: config });
  await expect(callCard(page, 0)).toHaveAttribute("data-state", "completed");
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("open-palette")).toBeEnabled();

  const settings = await openSettings(page);
  await expect(settings.getByTestId("config-shape-v2")).toContainText("OpenCode V2's shape");
  await expect(settings.getByLabel("Action of rule 1")).toHaveValue("shell");
  await expect(settings.getByLabel("Resource of rule 1")).toHaveValue("rm *");
  await expect(settings.getByLabel("Effect of rule 1")).toHaveValue("deny");
  const inForce = settings.locator('[data-testid=rule-layer][data-source="config"]');
  await expect(inForce.locator(".rule-row")).toHaveText([/shell\s*rm \*\s*deny/]);
  await settings.getByRole("button", { name: "Add rule" }).click();
  await settings.getByLabel("Action of rule 2").fill("shell");
  await settings.getByLabel("Resource of rule 2").fill("git push *");
  await settings.getByLabel("Effect of rule 2").selectOption("deny");
  await settings.getByTestId("save-rules").click();
  await expect(settings.getByTestId("save-status")).toContainText(/Saved to \S*opencode\.json/);
  await expect(inForce.locator(".rule-row")).toHaveText([/shell\s*rm \*\s*deny/, /shell\s*git push \*\s*deny/]);
  await page.screenshot({ path: "e2e/screenshots/settings-v2.png" });
  await page.keyboard.press("Escape");

  // The palette offers V2's shell; the V2 rule denies the call, which runs nothing.
  await runTool(page, "shell", { command: "rm opencode.json" });
  const denied = page.getByTestId("call-card").last();
  await expect(denied).toHaveAttribute("data-state", "error");
  await expect(denied).toContainText("shell");
  expect(consoleErrors).toEqual([]);
});
