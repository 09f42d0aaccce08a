import type { Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { callCard, expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";

const fresh = (memory = true) => freshWorkspace("settings", memory);

const card = callCard;

async function openSettings(page: Page) {
  await expect(page.getByTestId("open-settings")).toBeEnabled();
  await page.getByTestId("open-settings").focus();
  await page.keyboard.press("Enter");
  const settings = page.getByTestId("settings");
  await expect(settings).toBeVisible();
  await expect(settings.getByRole("heading", { name: "Permission settings" })).toBeFocused();
  return settings;
}

async function newSession(page: Page) {
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
}

test("settings lists the rules by source; a deny rule added there lands in opencode.json and denies the next call", async ({
  page,
  consoleErrors,
}) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "echo keep > keep.txt");
  await waitForIdle(page);
  const settings = await openSettings(page);
  const layers = settings.getByTestId("rule-layer");
  await expect(layers.first()).toHaveAttribute("data-source", "default");
  await expect(layers.first()).toContainText("Agent defaults");
  await expect(settings.getByTestId("rules-in-force")).toContainText("The build agent's own rules");
  await expect(settings).toContainText("The last rule that matches decides");
  await expect(settings.locator('[data-testid=rule-layer][data-source="config"]')).toHaveCount(0);

  await settings.getByRole("button", { name: "Add rule" }).click();
  await expect(settings.getByLabel("Permission of rule 1")).toBeFocused();
  await page.keyboard.type("bash");
  await settings.getByLabel("Pattern of rule 1").fill("rm *");
  await settings.getByLabel("Action of rule 1").selectOption("deny");
  await settings.getByTestId("save-rules").click();
  await expect(settings.getByTestId("save-status")).toContainText(/Saved to \S*opencode\.json/);
  const config = settings.locator('[data-testid=rule-layer][data-source="config"]');
  await expect(config).toContainText("Workspace config (opencode.json)");
  await expect(config.locator(".rule-row")).toHaveText([/bash\s*rm \*\s*deny/]);
  // The config's group comes after the built-in ones, and only the tool-output allowance follows it.
  const sources = await layers.evaluateAll((all) => all.map((layer) => layer.getAttribute("data-source")));
  expect(sources).toEqual(["default", "agent", "config", "default"]);
  await expect(layers.last()).toContainText("tool-output");
  await page.screenshot({ path: "e2e/screenshots/settings-rules.png" });

  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await expect(page.getByTestId("open-settings")).toBeFocused();

  await runTool(page, "bash", { command: "rm keep.txt", description: "Removes" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "error");
  await expect(card(page, 0).getByTestId("call-error")).toContainText("A rule in force denies this call");
  await expect(card(page, 0).getByTestId("call-rejection")).toHaveText("Denied by a rule: bash rm keep.txt");
  await runTool(page, "read", { filePath: "keep.txt" });
  await expect(card(page, 1).getByTestId("call-output")).toContainText("keep");
  await runTool(page, "read", { filePath: "opencode.json" });
  await expect(card(page, 2).getByTestId("call-output")).toContainText('"rm *": "deny"');
  await page.screenshot({ path: "e2e/screenshots/settings-denied-call.png" });
  expect(consoleErrors).toEqual([]);
});

test("explain answers with the deciding rule and its source, before and after a config rule", async ({ page }) => {
  await openWorkbench(page, fresh());
  const settings = await openSettings(page);
  const form = settings.getByTestId("explain-form");
  const result = settings.getByTestId("explain-result");
  await form.getByRole("button", { name: "Explain" }).click();
  await expect(settings.getByText("Fill in both")).toBeVisible();

  await form.getByLabel("Permission").fill("read");
  await form.getByLabel("Pattern").fill("app/.env");
  await form.getByLabel("Pattern").press("Enter");
  await expect(result).toHaveAttribute("data-action", "ask");
  await expect(result).toHaveAttribute("data-source", "default");
  await expect(result).toContainText('by the default rule read "*.env": "ask"');

  await settings.getByRole("button", { name: "Add rule" }).click();
  await settings.getByLabel("Permission of rule 1").fill("read");
  await settings.getByLabel("Pattern of rule 1").fill("*.env");
  await settings.getByLabel("Action of rule 1").selectOption("deny");
  await settings.getByTestId("save-rules").click();
  await expect(settings.getByTestId("save-status")).toContainText("in force");
  await form.getByRole("button", { name: "Explain" }).click();
  await expect(result).toHaveAttribute("data-action", "deny");
  await expect(result).toHaveAttribute("data-source", "config");
  await expect(result).toContainText('by the config rule read "*.env": "deny"');
  await expect(result).toContainText("Workspace config (opencode.json)");
  await page.screenshot({ path: "e2e/screenshots/settings-explain.png" });
  const scan = await new AxeBuilder({ page }).include("[data-testid=settings]").analyze();
  expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.length}`)).toEqual(
    [],
  );

  // Removing the rule again puts the default back in charge.
  await settings.getByLabel("Remove rule 1").click();
  await settings.getByTestId("save-rules").click();
  await expect(settings.getByTestId("save-status")).toContainText("in force");
  await form.getByRole("button", { name: "Explain" }).click();
  await expect(result).toHaveAttribute("data-source", "default");
});

test("Always allow with 'also save' writes the remembered pattern into opencode.json, so a new session does not ask", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, `echo '{"permission":{"bash":"ask"}}' > opencode.json`);
  await waitForIdle(page);
  await newSession(page);
  await runTool(page, "bash", { command: "echo hi", description: "Says hi" });
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt.getByTestId("allow-always")).toContainText("bash: echo *");
  await prompt.getByTestId("save-always").check();
  await page.screenshot({ path: "e2e/screenshots/settings-always-save.png" });
  await prompt.getByTestId("allow-always").click();
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(page.getByTestId("tools-status")).toContainText(/Saved bash: echo \* to \S*opencode\.json/);
  await runTool(page, "read", { filePath: "opencode.json" });
  await expect(card(page, 1).getByTestId("call-output")).toContainText('"echo *": "allow"');

  await newSession(page);
  await runTool(page, "bash", { command: "echo again", description: "Says again" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(page.getByTestId("permission-prompt")).toHaveCount(0);
  await runTool(page, "bash", { command: "ls", description: "Lists" });
  await expect(page.getByTestId("permission-prompt")).toBeVisible();
});

test("trusting a workspace runs its custom tool, shows load problems, and is remembered across a reload", async ({ page }) => {
  const query = fresh(false);
  await openWorkbench(page, query);
  const hello = `import { tool } from "@opencode-ai/plugin"; export default tool({ description: "Greets someone", args: { name: tool.schema.string() }, async execute({ name }) { return "hello, " + name; } });`;
  await runInTerminal(
    page,
    `mkdir -p .opencode/tool && echo '${hello}' > .opencode/tool/hello.ts && echo 'export default 1 +;' > .opencode/tool/broken.ts`,
  );
  await waitForIdle(page);
  await newSession(page);
  const notice = page.getByTestId("trust-notice");
  await expect(notice).toBeVisible();
  await expect(notice.locator(".trust-files li")).toHaveText([".opencode/tool/broken.ts", ".opencode/tool/hello.ts"]);
  await page.screenshot({ path: "e2e/screenshots/settings-trust-notice.png" });

  await page.keyboard.press("Control+k");
  await page.getByLabel("Filter tools").fill("hello");
  await expect(page.getByTestId("tool-palette").getByRole("option")).toHaveCount(0);
  await page.keyboard.press("Escape");

  const settings = await openSettings(page);
  await expect(settings.getByTestId("trust-notice")).toBeVisible();
  await settings.getByTestId("trust-workspace").focus();
  await page.keyboard.press("Enter");
  await expect(settings.getByTestId("trusted-state")).toBeVisible();
  await expect(settings.getByRole("heading", { name: "Workspace code" })).toBeFocused();
  await expect(settings.getByTestId("load-problems")).toContainText(".opencode/tool/broken.ts");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("trust-notice")).toHaveCount(0);
  await expect(page.getByTestId("load-problems")).toBeVisible();

  await runTool(page, "hello", { name: "Ada" });
  await expect(card(page, 0)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 0).getByTestId("call-output")).toHaveText("hello, Ada");
  await page.screenshot({ path: "e2e/screenshots/settings-trusted.png" });

  await page.reload();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await expect(page.getByTestId("trust-notice")).toHaveCount(0);
  await runTool(page, "hello", { name: "again" });
  // The session survives the reload, so the new call comes after the one made before it.
  await expect(page.getByTestId("call-card").last().getByTestId("call-output")).toHaveText("hello, again");

  // Trust can be taken back, and that is remembered too.
  const again = await openSettings(page);
  await again.getByRole("button", { name: "Stop trusting" }).click();
  await expect(again.getByTestId("trust-notice")).toBeVisible();
  await expect(again.getByRole("heading", { name: "Workspace code" })).toBeFocused();
  await page.keyboard.press("Escape");
  await page.reload();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await expect(page.getByTestId("trust-notice")).toBeVisible();
  await page.keyboard.press("Control+k");
  await page.getByLabel("Filter tools").fill("hello");
  await expect(page.getByTestId("tool-palette").getByRole("option")).toHaveCount(0);
});

test("a broken opencode.json is reported in settings, and saving leaves it as it is", async ({ page }) => {
  await openWorkbench(page, fresh());
  await expect(page.getByTestId("open-settings")).toBeEnabled();
  await runInTerminal(page, `echo '{"permission": {"bash": "ask"' > opencode.json`);
  await waitForIdle(page);
  const settings = await openSettings(page);
  await expect(settings.getByTestId("config-error")).toContainText("opencode.json is not valid JSON");
  await settings.getByRole("button", { name: "Add rule" }).click();
  await settings.getByLabel("Permission of rule 1").fill("bash");
  await settings.getByTestId("save-rules").click();
  await expect(settings.getByTestId("save-status")).toContainText("fix the file (or remove it) and save again");
  await page.screenshot({ path: "e2e/screenshots/settings-broken-config.png" });
  await page.keyboard.press("Escape");
  await runTool(page, "read", { filePath: "opencode.json" });
  await expect(card(page, 0).getByTestId("call-output")).toContainText('{"permission": {"bash": "ask"');
});
