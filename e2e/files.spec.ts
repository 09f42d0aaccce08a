import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, runTool, screenLines, test, waitForIdle } from "./fixtures.js";

const fresh = () => freshWorkspace("files");

const treeFile = (page: Page, name: string) => page.locator(`.file-tree li[data-path="/workspace/${name}"] > .tree-row > button.tree-name`);
const editorFor = (page: Page, name: string) => page.locator(`[data-testid=file-editor][data-path="/workspace/${name}"]`);

async function shell(page: Page, command: string): Promise<void> {
  await page.getByTestId("tab-terminal").click();
  await runInTerminal(page, command);
  await waitForIdle(page);
}

const lastCard = (page: Page) => page.getByTestId("call-card").last();

async function openFromTree(page: Page, name: string) {
  await treeFile(page, name).click();
  const editor = editorFor(page, name);
  await expect(editor.locator(".cm-content")).toBeVisible();
  return editor;
}

test("a file opens from the tree highlighted, and a save (Ctrl+S) writes it to disk", async ({ page, consoleErrors }) => {
  await openWorkbench(page, fresh());
  await shell(page, `printf 'const greeting = "hi";\\n// a comment\\nexport function f() { return 1; }\\n' > hello.ts`);
  const editor = await openFromTree(page, "hello.ts");
  await expect(page.getByTestId("file-tab")).toHaveText(["hello.ts"]);
  await expect(editor.locator("[data-testid=editor-host][data-language-ready]")).toBeAttached();
  await expect(editor.locator(".cm-content .tok-keyword").first()).toHaveText("const");
  await expect(editor.locator(".cm-content .tok-string").first()).toHaveText('"hi"');
  await expect(editor.locator(".cm-content .tok-comment")).toHaveText("// a comment");
  await expect(editor.locator(".cm-gutter.cm-lineNumbers")).toContainText("3");

  await editor.locator(".cm-line").first().click();
  await page.keyboard.press("End");
  await page.keyboard.type(" // edited");
  await expect(editor.getByTestId("dirty-marker")).toBeVisible();
  await expect(page.getByTestId("file-tab")).toHaveText(["hello.ts ●"]);
  await page.screenshot({ path: "e2e/screenshots/files-editor-dirty.png" });
  await page.keyboard.press("Control+s");
  await expect(editor.getByTestId("dirty-marker")).toBeHidden();
  await expect(page.getByTestId("file-tab")).toHaveText(["hello.ts"]);

  await shell(page, "cat hello.ts");
  const lines = await screenLines(page);
  expect(lines).toContain('const greeting = "hi"; // edited');
  expect(lines).toContain("export function f() { return 1; }");
  expect(consoleErrors).toEqual([]);
});

test("after a hand save, an edit from a tool that read the file earlier fails until it reads again", async ({ page }) => {
  await openWorkbench(page, fresh());
  await shell(page, "printf 'alpha\\nbeta\\n' > notes.txt");
  await runTool(page, "read", { filePath: "notes.txt" });
  await expect(lastCard(page)).toHaveAttribute("data-state", "completed");

  const editor = await openFromTree(page, "notes.txt");
  await editor.locator(".cm-line").nth(1).click();
  await page.keyboard.press("End");
  await page.keyboard.type(" by hand");
  await editor.getByTestId("save-file").click();
  await expect(editor.getByTestId("dirty-marker")).toBeHidden();

  await runTool(page, "edit", { filePath: "notes.txt", oldString: "alpha", newString: "ALPHA" });
  await expect(lastCard(page)).toHaveAttribute("data-state", "error");
  await expect(lastCard(page)).toContainText("has been modified since it was last read");
  await expect(lastCard(page)).toContainText("Please read the file again before modifying it.");
  await page.screenshot({ path: "e2e/screenshots/files-edit-refused.png" });

  await runTool(page, "read", { filePath: "notes.txt" });
  await runTool(page, "edit", { filePath: "notes.txt", oldString: "alpha", newString: "ALPHA" });
  await expect(lastCard(page)).toHaveAttribute("data-state", "completed");
  // The open, clean editor follows the tool's change on disk.
  await expect(editor.getByTestId("editor-notice")).toHaveAttribute("data-kind", "reloaded");
  await expect(editor.locator(".cm-line").first()).toHaveText("ALPHA");
  await expect(editor.locator(".cm-line").nth(1)).toHaveText("beta by hand");
});

test("a file written by a tool appears in the tree, and one removed by the terminal leaves it, without a manual refresh", async ({
  page,
}) => {
  await openWorkbench(page, fresh());
  await expect(page.locator(".file-tree")).toBeVisible();
  await runTool(page, "write", { filePath: "made-by-tool.md", content: "# Title\n\nSome *text*.\n" });
  await expect(lastCard(page)).toHaveAttribute("data-state", "completed");
  await expect(treeFile(page, "made-by-tool.md")).toBeVisible();

  const editor = await openFromTree(page, "made-by-tool.md");
  await expect(editor.locator(".cm-content .tok-heading", { hasText: "Title" }).first()).toBeVisible();
  await editor.locator(".cm-line").last().click();
  await page.keyboard.type("unsaved words");
  await shell(page, "rm made-by-tool.md");
  await expect(treeFile(page, "made-by-tool.md")).toHaveCount(0);
  await page.getByTestId("file-tab").click();
  await expect(editor.getByTestId("editor-notice")).toHaveAttribute("data-kind", "deleted");
  await expect(editor.getByTestId("editor-notice")).toContainText("made-by-tool.md was deleted on disk.");
  await page.screenshot({ path: "e2e/screenshots/files-deleted.png" });
  await editor.getByRole("button", { name: "Save to create it again" }).click();
  await expect(treeFile(page, "made-by-tool.md")).toBeVisible();
  await expect(editor.getByTestId("dirty-marker")).toBeHidden();
});

test("a file named like markup opens as text, with markup inside shown as text", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openWorkbench(page, fresh());
  const name = "<img src=x onerror=alert(1)>";
  await shell(page, `printf '<script>alert(2)</script>\\n<b>bold?</b>\\n' > '${name}'`);
  await expect(treeFile(page, name)).toHaveText(name);
  const editor = await openFromTree(page, name);
  await expect(page.getByTestId("file-tab")).toHaveText([name]);
  await expect(editor.locator(".editor-path")).toHaveText(name);
  await expect(editor.locator(".cm-line").first()).toHaveText("<script>alert(2)</script>");
  await expect(page.locator("img[src=x], b:text('bold?'), .cm-content script")).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/files-xss.png" });
  expect(dialogs).toEqual([]);
});

test("binary and oversized files get a notice instead of the editor, until they become text that fits", async ({ page }) => {
  await openWorkbench(page, fresh());
  await shell(page, "printf 'ab\\000cd' > blob.bin2 && seq 1 90000 > part && cat part part part part part > big.log && rm part");
  await treeFile(page, "blob.bin2").click();
  await expect(editorFor(page, "blob.bin2").getByTestId("editor-message")).toHaveAttribute("data-kind", "binary");
  await expect(editorFor(page, "blob.bin2").getByTestId("editor-message")).toContainText("blob.bin2 is not shown: it looks binary");
  await treeFile(page, "big.log").click();
  const big = editorFor(page, "big.log");
  await expect(big.getByTestId("editor-message")).toHaveAttribute("data-kind", "too-large");
  await expect(big.getByTestId("editor-message")).toContainText("more than the editor opens (2.0 MB)");
  await expect(big.locator(".cm-content")).toHaveCount(0);
  await expect(big.getByRole("button", { name: "Download big.log" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/files-too-large.png" });

  // Once the file is small again, the tab opens it by itself.
  await shell(page, "echo small now > big.log");
  await page.getByTestId("file-tab").filter({ hasText: "big.log" }).click();
  await expect(big.locator(".cm-line").first()).toHaveText("small now");
});

test("the theme toggle switches light and dark, themes the terminal and the editor, and survives a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  const query = fresh();
  await openWorkbench(page, query);
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "dark");
  await shell(page, "printf 'let x = 1; // note\\n' > t.js");
  await openFromTree(page, "t.js");
  await page.screenshot({ path: "e2e/screenshots/theme-dark.png" });
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const darkBody = await background();

  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveAttribute("data-theme", "light");
  expect(await background()).not.toBe(darkBody);
  const editorBackground = await page.locator(".cm-editor").evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(editorBackground).toBe("rgb(255, 255, 255)");
  await page.getByTestId("tab-terminal").click();
  await expect(page.locator(".xterm-viewport")).toHaveCSS("background-color", "rgb(255, 255, 255)");
  await page.screenshot({ path: "e2e/screenshots/theme-light.png" });

  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await expect(html).toHaveAttribute("data-theme", "light");
  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await page.reload();
  await expect(page.getByTestId("runtime-status")).toBeVisible();
  await expect(html).toHaveAttribute("data-theme", "dark");
});

test("at 1024 px the editor fits beside the terminal tab without sideways scrolling, and Tab reaches tree, tabs and editor", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openWorkbench(page, fresh());
  await shell(page, `printf '${"word ".repeat(60)}\\n' > wide.txt`);
  const editor = await openFromTree(page, "wide.txt");
  await expect(editor.locator(".cm-line").first()).toContainText("word word");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
  await page.screenshot({ path: "e2e/screenshots/files-1024.png" });

  // Keyboard alone: from the file's tree entry, Tab moves on to the tabs and then into the editor.
  await treeFile(page, "wide.txt").focus();
  await expect(treeFile(page, "wide.txt")).toBeFocused();
  const reached: string[] = [];
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    reached.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.getAttribute("role") === "tab"
          ? `tab:${el.textContent}`
          : el?.classList.contains("cm-content")
            ? "editor"
            : (el?.tagName ?? "none");
      }),
    );
    if (reached.at(-1) === "editor") break;
  }
  expect(reached).toContain("tab:wide.txt");
  expect(reached.at(-1)).toBe("editor");
  await expect(editor.locator(".cm-editor")).toHaveClass(/cm-focused/);
  await expect(editor.locator(".cm-editor")).toHaveCSS("outline-style", "solid");

  // Arrow keys move between the tabs and keep the focus on them.
  await page.getByTestId("tab-terminal").click();
  await expect(page.getByTestId("tab-terminal")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("tab-preview")).toBeFocused();
  await expect(page.getByTestId("tab-preview")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("file-tab")).toBeFocused();
  await expect(page.getByTestId("file-tab")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("file-tab")).toHaveCSS("outline-style", "solid");
  await page.keyboard.press("Home");
  await expect(page.getByTestId("tab-terminal")).toBeFocused();
  await expect(page.getByTestId("tab-terminal")).toHaveAttribute("aria-selected", "true");
});

test("a bash tool call that changes a file open with unsaved edits asks before anything is lost, and the tree shows its new file", async ({
  page,
}) => {
  await openWorkbench(page, fresh());
  await shell(page, "printf 'one\\n' > shared.txt");
  const editor = await openFromTree(page, "shared.txt");
  await editor.locator(".cm-line").first().click();
  await page.keyboard.press("End");
  await page.keyboard.type(" mine");

  await runTool(page, "bash", { command: "echo theirs > shared.txt && echo new > from-bash.txt", description: "Changes files" });
  await expect(lastCard(page)).toHaveAttribute("data-state", "completed");
  await expect(treeFile(page, "from-bash.txt")).toBeVisible();
  const notice = editor.getByTestId("editor-notice");
  await expect(notice).toHaveAttribute("data-kind", "changed");
  await expect(notice).toContainText("shared.txt changed on disk while you were editing it.");
  // The editor kept the user's text; Ctrl+S alone refuses to overwrite the change.
  await expect(editor.locator(".cm-line").first()).toHaveText("one mine");
  await editor.locator(".cm-line").first().click();
  await page.keyboard.press("Control+s");
  await expect(notice).toHaveAttribute("data-kind", "changed");
  await page.screenshot({ path: "e2e/screenshots/files-conflict.png" });

  await notice.getByRole("button", { name: "Overwrite with mine" }).click();
  await expect(notice).toHaveAttribute("data-kind", "saved");
  await shell(page, "cat shared.txt");
  expect(await screenLines(page)).toContain("one mine");
});

test("the tree works from the keyboard: arrows move and open folders, Enter opens a file in the editor", async ({ page }) => {
  await openWorkbench(page, fresh());
  await shell(page, "mkdir -p src && printf 'x = 1\\n' > src/app.py && printf 'top\\n' > top.txt");
  const folder = page.locator('.file-tree li[data-path="/workspace/src"] > .tree-row > button.tree-name');
  await folder.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.locator('.file-tree li[data-path="/workspace/src"]')).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowDown");
  await expect(treeFile(page, "src/app.py")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(treeFile(page, "top.txt")).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowLeft");
  await expect(folder).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const editor = editorFor(page, "src/app.py");
  await expect(editor.locator(".cm-content")).toBeFocused();
  await expect(editor.locator(".cm-content .tok-number")).toHaveText("1");
});

test("the editor edits like one: Enter keeps the indent, Ctrl+Z undoes, Ctrl+F finds", async ({ page }) => {
  await openWorkbench(page, fresh());
  await shell(page, `printf 'function f() {\\n  if (x) {\\n    return 1;\\n  }\\n}\\n' > indent.js`);
  const editor = await openFromTree(page, "indent.js");
  await expect(editor.locator("[data-testid=editor-host][data-language-ready]")).toBeAttached();
  await editor.locator(".cm-line").nth(2).click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("y();");
  await expect(editor.locator(".cm-line").nth(3)).toHaveText("    y();");
  await expect(editor.getByTestId("dirty-marker")).toBeVisible();

  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  await expect(editor.locator(".cm-line")).toHaveCount(6);
  await expect(editor.locator(".cm-line").nth(3)).toHaveText("  }");
  // Back to what is on disk: nothing is unsaved any more.
  await expect(editor.getByTestId("dirty-marker")).toBeHidden();

  await page.keyboard.press("Control+f");
  const find = editor.locator(".cm-search input[name=search]");
  await expect(find).toBeFocused();
  await find.pressSequentially("return");
  await expect(editor.locator(".cm-searchMatch")).toHaveCount(1);
  await page.screenshot({ path: "e2e/screenshots/files-find.png" });
});
