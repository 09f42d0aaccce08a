/**
 * Issue 26: child_process in the page's embedded node, in Chromium and offline: a program's commands run in
 * the same shell (a nested `node` too), see what the program wrote, and leave their files for it; the sync
 * forms say what to use instead; Ctrl+C ends a program and the child it waits on, and the shell goes on.
 */
import { expect, freshWorkspace, openWorkbench, runInTerminal, screenLines, terminal, test, waitForIdle } from "./fixtures.js";

const fresh = () => freshWorkspace("node-child");

test("a program runs commands in the same shell: files both ways, a nested node, promisified exec", async ({ page }) => {
  await openWorkbench(page, fresh());
  const program = [
    'const fs = require("fs"); const { exec, spawn } = require("child_process"); const { promisify } = require("util");',
    'fs.writeFileSync("note.txt", "from the program");',
    "(async () => {",
    '  const { stdout } = await promisify(exec)("cat note.txt; echo; echo from-child > child.txt");',
    '  console.log("child saw:", stdout.trim(), "| program sees:", fs.readFileSync("child.txt", "utf8").trim());',
    '  const nested = spawn("node", ["-p", "6 * 7"]);',
    '  nested.stdout.on("data", (chunk) => console.log("nested node:", String(chunk).trim()));',
    '  nested.on("close", (code) => {',
    '    try { require("child_process").execSync("ls"); } catch (error) { console.log("sync:", error.code); }',
    "  });",
    "})();",
  ].join("\\n");
  await runInTerminal(page, `printf '${program}\\n' > run.js`);
  await waitForIdle(page);
  await runInTerminal(page, "node run.js && cat child.txt");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("child saw: from the program | program sees: from-child");
  await expect(terminal(page)).toContainText("nested node: 42");
  await expect(terminal(page)).toContainText("sync: ERR_WORKBENCH_UNSUPPORTED");
  const lines = await screenLines(page);
  expect(lines.filter((line) => line.trim() === "from-child").length, lines.join("\n")).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/node-child.png" });
});

test("Ctrl+C ends a program and the endless child it waits on; the shell goes on", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, `node -e 'require("child_process").exec("while true; do echo tick >> ticks.txt; done", () => {})'`);
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  await page.waitForTimeout(2000);
  await page.keyboard.press("Control+c");
  await waitForIdle(page);
  await runInTerminal(
    page,
    "test -s ticks.txt && wc -l < ticks.txt > first.txt && sleep 1 && wc -l < ticks.txt > second.txt && cmp first.txt second.txt && echo stopped",
  );
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("stopped");
  await runInTerminal(page, `node -e 'console.log("after", 6 * 7)'`);
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("after 42");
});
