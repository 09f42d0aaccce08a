import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, runTool, test, waitForIdle } from "./fixtures.js";

const editorFor = (page: Page, name: string) => page.locator(`[data-testid=file-editor][data-path="/workspace/${name}"]`);
const lastCard = (page: Page) => page.getByTestId("call-card").last();

async function shell(page: Page, command: string): Promise<void> {
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, command);
  await waitForIdle(page);
}

test("the language service loads after the first paint, and a type error made by an edit is underlined in the editor and reported to the tool", async ({
  page,
  consoleErrors,
}) => {
  const workerScripts: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/(worker|project)-/.test(request.url())) workerScripts.push(request.url());
  });
  await openWorkbench(page, freshWorkspace("lsp"));
  // Nothing of TypeScript is fetched until a covered file is touched.
  expect(workerScripts).toEqual([]);
  await shell(
    page,
    `printf '{ "compilerOptions": { "strict": true } }\\n' > tsconfig.json && printf 'export const count: number = 1;\\nexport const label = "x";\\n' > calc.ts`,
  );
  await page.locator('.file-tree li[data-path="/workspace/calc.ts"] > .tree-row > button.tree-name').click();
  const editor = editorFor(page, "calc.ts");
  const host = editor.getByTestId("editor-host");
  await expect(host).toHaveAttribute("data-diagnostics", "0", { timeout: 30_000 });
  expect(workerScripts.length).toBeGreaterThan(0);
  await expect(editor.locator(".cm-lintRange-error")).toHaveCount(0);

  await runTool(page, "read", { filePath: "calc.ts" });
  await runTool(page, "edit", { filePath: "calc.ts", oldString: "number = 1", newString: 'number = "one"' });
  await expect(lastCard(page)).toHaveAttribute("data-state", "completed");
  await expect(lastCard(page)).toContainText("LSP errors detected in this file, please fix:");
  await expect(lastCard(page)).toContainText("ERROR [1:14] Type 'string' is not assignable to type 'number'.");

  await expect(host).toHaveAttribute("data-diagnostics", "1");
  const squiggle = editor.locator(".cm-lintRange-error");
  await expect(squiggle).toHaveCount(1);
  await expect(squiggle).toHaveText("count");
  await page.screenshot({ path: "e2e/screenshots/lsp-squiggle.png" });
  // The squiggle's message on hover, in the dark theme too.
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await squiggle.hover();
  await expect(page.locator(".cm-tooltip-lint")).toContainText("Type 'string' is not assignable to type 'number'.");
  await page.screenshot({ path: "e2e/screenshots/lsp-squiggle-dark.png" });

  await runTool(page, "read", { filePath: "calc.ts" });
  await runTool(page, "edit", { filePath: "calc.ts", oldString: 'number = "one"', newString: "number = 2" });
  await expect(lastCard(page)).toHaveAttribute("data-state", "completed");
  await expect(lastCard(page)).not.toContainText("LSP errors");
  await expect(host).toHaveAttribute("data-diagnostics", "0");
  await expect(editor.locator(".cm-lintRange-error")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
