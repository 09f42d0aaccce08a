/**
 * A shared session's replay can be stepped back (issue 31.3): after a three-turn replay that writes one file
 * per turn, "Undo from here" on the second turn's message takes the workspace back to before it (the first
 * turn's file stays, the later ones go) and puts that message back in the box; Redo brings them back. The
 * files are read through the terminal, as a visitor would check them.
 */
import type { Page } from "@playwright/test";
import { encodeShareLink } from "../src/embed/share/index.js";
import { recordedSession } from "./recorded-session.js";
import { expect, runInTerminal, screenLines, test, waitForIdle } from "./fixtures.js";

let probe = 0;
/** `name=<content>` per file as the terminal shows it ("none" for a missing one). */
async function contents(page: Page, ...names: string[]): Promise<string> {
  await page.getByTestId("tab-terminal").click();
  const mark = `step${++probe}`;
  await runInTerminal(page, `for f in ${names.join(" ")}; do printf '${mark} %s=%s\\n' "$f" "$(cat "$f" 2>/dev/null || echo none)"; done`);
  await waitForIdle(page);
  let lines: string[] = [];
  await expect
    .poll(async () => {
      lines = (await screenLines(page)).filter((line) => line.startsWith(`${mark} `));
      return lines.length;
    })
    .toBe(names.length);
  return lines.map((line) => line.slice(mark.length + 1)).join(" ");
}

test("a replayed shared session steps back from a turn, and redo brings the turn back", async ({ page, baseURL }) => {
  const write = (prompt: string, filePath: string, content: string) => ({
    prompt,
    calls: [{ tool: "write", input: { filePath, content } }],
  });
  const session = recordedSession("Three writes", [
    write("write one", "one.txt", "1\n"),
    write("write two", "two.txt", "2\n"),
    write("write three", "three.txt", "3\n"),
  ]);
  const link = await encodeShareLink({ name: "Three writes", files: { "README.md": "# steps\n" }, session }, `${baseURL}/`);
  await page.goto(link);
  await page.getByTestId("tab-chat").click();
  await expect(page.getByTestId("share-replay-start")).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId("share-replay-speed").selectOption("0");
  await page.getByTestId("share-replay-start").click();
  const chat = page.getByTestId("chat-pane");
  await expect(chat.getByTestId("chat-transcript")).toContainText("Turn 3 done.", { timeout: 30_000 });
  await expect(chat.getByTestId("chat-status")).toHaveAttribute("data-status", "idle", { timeout: 30_000 });
  // The shell sees the tools' writes a moment after the call ends: look until it does.
  await expect.poll(() => contents(page, "one.txt", "two.txt", "three.txt"), { timeout: 20_000 }).toBe("one.txt=1 two.txt=2 three.txt=3");

  await page.getByTestId("tab-chat").click();
  // The transcript draws only the rows in view: find the second turn's message by its text.
  const second = chat.getByTestId("user-message").filter({ hasText: "write two" });
  await second.scrollIntoViewIfNeeded();
  await second.getByTestId("undo-from-here").click();
  await expect(chat.getByTestId("undo-staged")).toBeVisible();
  await expect(chat.getByTestId("prompt-input")).toHaveValue("write two");
  await expect
    .poll(() => contents(page, "one.txt", "two.txt", "three.txt"), { timeout: 20_000 })
    .toBe("one.txt=1 two.txt=none three.txt=none");

  await page.getByTestId("tab-chat").click();
  await chat.getByTestId("prompt-input").focus();
  await page.keyboard.press("Control+Shift+Z");
  await expect(chat.getByTestId("undo-staged")).toBeHidden();
  await expect.poll(() => contents(page, "one.txt", "two.txt", "three.txt"), { timeout: 20_000 }).toBe("one.txt=1 two.txt=2 three.txt=3");
});
