/**
 * Issue 26, control: a program that allocates without end gets an error, never a crashed tab. Chromium
 * gives the sandbox frame a process of its own and ends that process when the program's heap is full;
 * the page notices the frame's silence, ends the call with a message, and the next program gets a new
 * frame. Playwright counts any frame's crash as the page's and stops driving it, so after the sandbox's
 * end this test reads and types into the same tab over a DevTools session of its own.
 */
import type { CDPSession } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, test, waitForIdle } from "./fixtures.js";

async function screen(session: CDPSession): Promise<string> {
  const answer = await session.send("Runtime.evaluate", {
    expression: "document.querySelector('.xterm-rows')?.innerText ?? ''",
    returnByValue: true,
  });
  return String(answer.result.value);
}

async function typeLine(session: CDPSession, line: string): Promise<void> {
  await session.send("Runtime.evaluate", { expression: "document.querySelector('.xterm-helper-textarea').focus()" });
  await session.send("Input.insertText", { text: line });
  for (const type of ["keyDown", "keyUp"] as const)
    await session.send("Input.dispatchKeyEvent", { type, key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, text: "\r" });
}

test("a program that allocates without end gets a clear error; the tab, the shell and its files go on", async ({ page }) => {
  test.setTimeout(240_000);
  let frameEnded = false;
  page.on("crash", () => (frameEnded = true));
  await openWorkbench(page, freshWorkspace("node-memory"));
  await runInTerminal(page, "echo kept > kept.txt");
  await waitForIdle(page);
  await runInTerminal(page, "node -e 'const a = []; while (true) a.push(new Array(1e6).fill(Math.random()))'; echo ended-$?");
  await expect.poll(() => frameEnded, { timeout: 120_000 }).toBe(true);

  // The same tab: its sandbox frame is gone, the page itself never stopped.
  const session = await page.context().newCDPSession(page);
  await expect.poll(() => screen(session), { timeout: 30_000 }).toMatch(/ran out of memory[\s\S]*ended-134/);
  await typeLine(session, "cat kept.txt && node -e 'console.log(\"after\", 6 * 7)'");
  await expect.poll(() => screen(session), { timeout: 30_000 }).toContain("after 42");
  expect(await screen(session)).toMatch(/^kept$/m);
});
