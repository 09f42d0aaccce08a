/**
 * Issue 26: `node` in the embedded shell, in Chromium and offline. A program runs in a worker inside an
 * opaque-origin frame: it reads and writes the workspace's files, and reaches nothing else (the page's
 * storage, its DOM, the network); a runaway ends at Ctrl+C and the shell goes on.
 */
import { expect, freshWorkspace, openWorkbench, runInTerminal, screenLines, terminal, test, waitForIdle } from "./fixtures.js";

const fresh = () => freshWorkspace("node");

test("node runs a file from the workspace, and what it writes is there for the next command", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(
    page,
    `printf 'const fs = require("fs");\\nconsole.log("sum", [1, 2].map((n) => n * 2));\\nfs.writeFileSync("out.txt", "from node");\\n' > hello.js`,
  );
  await waitForIdle(page);
  await runInTerminal(page, "node hello.js && cat out.txt && echo");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("sum [ 2, 4 ]");
  await expect(terminal(page)).toContainText("from node");
  await runInTerminal(page, "node -p 'process.version' | wc -c");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("9");
});

test("a program cannot reach the workbench's storage, cookies, DOM, parent window or the network", async ({ page }) => {
  await openWorkbench(page, fresh());
  await page.evaluate(() => {
    localStorage.setItem("workbench-secret", "keep-me");
    document.cookie = "workbench-cookie=keep-me";
  });
  // Each probe tries the obvious way and the way around our own deletions (the global scope's prototypes).
  const probe = [
    "const proto = Object.getPrototypeOf(Object.getPrototypeOf(globalThis));",
    "const out = {};",
    "out.origin = proto && Reflect.get(proto, 'origin', globalThis);",
    "try { const idb = Reflect.get(proto, 'indexedDB', globalThis); idb.open('workbench'); out.idb = 'opened'; } catch (e) { out.idb = e.name; }",
    "out.document = typeof document; out.parent = typeof parent; out.localStorage = typeof localStorage;",
    "const f = Reflect.get(proto, 'fetch', globalThis);",
    "Promise.resolve(f ? f.call(globalThis, '/') : Promise.reject(new Error('none')))",
    ".then(() => 'fetched', (e) => 'blocked')",
    ".then((net) => { out.net = net; console.log(JSON.stringify(out)); });",
  ].join(" ");
  await runInTerminal(page, `node -e "${probe}"`);
  await waitForIdle(page);
  // The terminal wraps the line at its width: joined, the rows give it back whole.
  const lines = (await screenLines(page)).join("");
  const json = lines.match(/\{"origin".*\}/)?.[0];
  expect(json, lines).toBeTruthy();
  const out = JSON.parse(json!);
  expect(out.origin).toBe("null");
  expect(out.idb).toBe("SecurityError");
  expect(out.document).toBe("undefined");
  expect(out.parent).toBe("undefined");
  expect(out.localStorage).toBe("undefined");
  expect(out.net).toBe("blocked");
  expect(await page.evaluate(() => localStorage.getItem("workbench-secret"))).toBe("keep-me");
  expect(await page.evaluate(() => document.cookie)).toContain("workbench-cookie=keep-me");
});

test("Ctrl+C ends `while(true){}` within a second; the shell and its files go on", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "echo kept > kept.txt");
  await waitForIdle(page);
  await runInTerminal(page, "node -e 'while (true) {}'");
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  // Give the program time to be running in its sandbox before stopping it.
  await page.waitForTimeout(1500);
  const stoppedAt = Date.now();
  await page.keyboard.press("Control+c");
  await waitForIdle(page);
  expect(Date.now() - stoppedAt).toBeLessThan(1_000);
  await runInTerminal(page, "cat kept.txt && node -e 'console.log(\"after\", 6 * 7)'");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("after 42");
});

test("the sample project's tests run with node --test; a broken greeting fails them", async ({ page }) => {
  await openWorkbench(page, fresh());
  await page.getByTestId("open-settings").waitFor();
  await runInTerminal(page, 'mkdir -p s/src && cd s && echo \'{"type":"module"}\' > package.json');
  await waitForIdle(page);
  await runInTerminal(
    page,
    `printf 'export function greet(name: string): string {\\n  return \\x60Hello, \\x24{name}!\\x60;\\n}\\n' > src/greet.ts`,
  );
  await waitForIdle(page);
  await runInTerminal(
    page,
    `printf 'import assert from "node:assert/strict";\\nimport { test } from "node:test";\\nimport { greet } from "./greet.ts";\\ntest("greets Ada", () => assert.equal(greet("Ada"), "Hello, Ada!"));\\n' > src/greet.test.ts`,
  );
  await waitForIdle(page);
  await runInTerminal(page, "node --test; echo exit=$?");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("ℹ pass 1");
  await expect(terminal(page)).toContainText("exit=0");
  await runInTerminal(page, "clear; sed -i 's/Hello/Hi/' src/greet.ts && node --test; echo exit=$?");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("ℹ fail 1");
  await expect(terminal(page)).toContainText("exit=1");
  await page.screenshot({ path: "e2e/screenshots/node-test-failure.png" });
});
