/**
 * Issue 28, control: a Python program that allocates without end gets CPython's MemoryError (Pyodide's
 * memory is bounded by WebAssembly's), never a crashed tab, and python3 and the files go on.
 */
import { expect, freshWorkspace, openWorkbench, runInTerminal, terminal, test, waitForIdle } from "./fixtures.js";

test("allocating without end in python3 ends in MemoryError; the tab, the shell and its files go on", async ({ page }) => {
  test.setTimeout(240_000);
  let crashed = false;
  page.on("crash", () => (crashed = true));
  await openWorkbench(page, freshWorkspace("python-memory"));
  await runInTerminal(page, "echo kept > kept.txt");
  await waitForIdle(page);
  await runInTerminal(page, "python3 -c 'a = [bytearray(10**7) for _ in iter(int, 1)]'; echo ended-$?");
  await expect(terminal(page)).toContainText(/ended-1(?!\d)/, { timeout: 180_000 });
  await expect(terminal(page)).toContainText("MemoryError");
  await runInTerminal(page, "cat kept.txt && python3 -c 'print(\"after\", 6 * 7)'");
  await expect(terminal(page)).toContainText("after 42", { timeout: 60_000 });
  expect(crashed).toBe(false);
});
