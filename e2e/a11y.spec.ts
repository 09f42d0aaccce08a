import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

const fresh = () => freshWorkspace("a11y");

/** The serious and critical axe violations on the page as it is now, one line each (rule, impact, where). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}): ${node.target.join(" ")} — ${node.failureSummary?.split("\n")[1]?.trim() ?? ""}`,
      ),
    );
}

async function setTheme(page: Page, theme: "light" | "dark") {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("data-theme")) !== theme) await toggle.click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
}

async function openFile(page: Page, name: string) {
  await page.locator(`.file-tree li[data-path="/workspace/${name}"] > .tree-row > button.tree-name`).click();
  await expect(page.locator(`[data-testid=file-editor][data-path="/workspace/${name}"] [data-language-ready]`)).toBeAttached();
}

for (const theme of ["dark", "light"] as const) {
  test(`axe (${theme}): the initial page, with files in the tree, has no serious or critical violations`, async ({ page }) => {
    await openWorkbench(page, fresh());
    await setTheme(page, theme);
    await runInTerminal(page, "mkdir -p src empty && printf 'x\\n' > src/a.ts && printf 'hello\\n' > notes.md");
    await waitForIdle(page);
    await page.locator('.file-tree li[data-path="/workspace/src"] button.folder').click();
    await page.locator('.file-tree li[data-path="/workspace/empty"] button.folder').click();
    await expect(page.locator('.file-tree li[data-path="/workspace/src/a.ts"]')).toBeVisible();
    await expect(page.locator(".file-tree .tree-empty")).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/a11y-initial-${theme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });

  test(`axe (${theme}): the editor open on a highlighted file, with a notice showing`, async ({ page }) => {
    await openWorkbench(page, fresh());
    await setTheme(page, theme);
    await runInTerminal(
      page,
      `printf 'import { a } from "./a";\\n// comment\\nexport const n = 42 + a("s");\\n' > main.ts && printf '# Title\\n\\n*text* [link](https://x)\\n' > readme.md`,
    );
    await waitForIdle(page);
    await openFile(page, "readme.md");
    await openFile(page, "main.ts");
    const editor = page.locator('[data-testid=file-editor][data-path="/workspace/main.ts"]');
    await editor.locator(".cm-line").first().click();
    await page.keyboard.type("let y = 1;");
    await expect(editor.getByTestId("dirty-marker")).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/a11y-editor-${theme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Control+s");
    await expect(editor.getByTestId("editor-notice")).toHaveAttribute("data-kind", "saved");
    expect(await seriousViolations(page)).toEqual([]);
  });
}

for (const theme of ["dark", "light"] as const) {
  test(`axe (${theme}): the tool palette open, with a form and its errors`, async ({ page }) => {
    await openWorkbench(page, fresh());
    await setTheme(page, theme);
    await expect(page.getByTestId("open-palette")).toBeEnabled();
    await page.keyboard.press("Control+k");
    const palette = page.getByTestId("tool-palette");
    await expect(palette).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await palette.getByLabel("Filter tools").fill("bash");
    await palette.getByLabel("Filter tools").press("Enter");
    await palette.locator("#tool-field-timeout").fill("soon");
    await palette.locator("#tool-field-timeout").press("Enter");
    await expect(palette.getByTestId("field-error-command")).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/a11y-palette-${theme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });
}

for (const theme of ["dark", "light"] as const) {
  test(`axe (${theme}): a permission prompt showing`, async ({ page }) => {
    await openWorkbench(page, fresh());
    await setTheme(page, theme);
    await runInTerminal(page, `echo '{"permission":{"edit":"ask"}}' > opencode.json`);
    await waitForIdle(page);
    await page.getByRole("button", { name: "New session" }).click();
    await expect(page.getByTestId("open-palette")).toBeEnabled();
    await page.keyboard.press("Control+k");
    const palette = page.getByTestId("tool-palette");
    await palette.getByLabel("Filter tools").fill("write");
    await palette.getByLabel("Filter tools").press("Enter");
    await palette.locator("#tool-field-filePath").fill("new.txt");
    await palette.locator("#tool-field-content").fill("hello");
    await palette.locator("#tool-field-filePath").press("Enter");
    await expect(page.getByTestId("prompt-queue")).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/a11y-prompt-${theme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });
}
