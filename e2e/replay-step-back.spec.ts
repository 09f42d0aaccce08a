/**
 * A shared session's replay can be stepped back (issue 31.3): after a three-turn replay that writes one file
 * per turn, "Undo from here" on the second turn's message takes the workspace back to before it (the first
 * turn's file stays, the later ones go) and puts that message back in the box; Redo brings them back. The
 * files are read through the terminal, as a visitor would check them.
 */
import type { Page } from "@playwright/test";
import { encodeShareLink } from "../src/embed/share/index.js";
import type { SessionFile } from "../src/session/record/session-json.js";
import { expect, runInTerminal, screenLines, test, waitForIdle } from "./fixtures.js";

/** A recorded session of one write per turn, as an export holds it. */
function writes(turns: { prompt: string; path: string; content: string }[]): SessionFile {
  const sessionID = "ses_steps";
  const messages: SessionFile["session"]["messages"] = [];
  const calls: SessionFile["session"]["calls"] = [];
  let n = 0;
  const time = () => 1_700_000_000_000 + n++ * 1000;
  const tokens = { input: 100, output: 10, reasoning: 0, cache: { read: 0, write: 0 } };
  const model = { providerID: "anthropic", modelID: "claude-sonnet-4" };
  const assistant = (id: string, parentID: string, parts: unknown[], finish: string) =>
    messages.push({
      id,
      sessionID,
      role: "assistant",
      parentID,
      time: { created: time(), completed: time() },
      agent: "build",
      ...model,
      parts: [
        { id: `${id}_s`, messageID: id, type: "step-start" },
        ...parts,
        { id: `${id}_f`, messageID: id, type: "step-finish", reason: finish, tokens, cost: 0 },
      ] as never,
      finish,
      tokens,
      cost: 0,
    });
  turns.forEach((turn, t) => {
    const user = `msg_u${t}`;
    messages.push({
      id: user,
      sessionID,
      role: "user",
      time: { created: time() },
      agent: "build",
      model,
      parts: [{ id: `${user}_p`, messageID: user, type: "text", text: turn.prompt }],
    });
    const callID = `call_${t}`;
    calls.push({
      id: callID,
      sessionID,
      messageID: `msg_a${t}`,
      tool: "write",
      input: { filePath: turn.path, content: turn.content },
      status: "completed",
      title: turn.path,
      metadata: {},
      output: "Wrote file successfully.",
      permissions: [],
      time: { created: time(), start: time(), end: time() },
    });
    assistant(
      `msg_a${t}`,
      user,
      [{ id: `msg_a${t}_c`, messageID: `msg_a${t}`, type: "tool", providerCallID: `toolu_${t}`, callID, tool: "write" }],
      "tool-calls",
    );
    assistant(`msg_e${t}`, user, [{ id: `msg_e${t}_t`, messageID: `msg_e${t}`, type: "text", text: `Turn ${t + 1} done.` }], "stop");
  });
  return {
    format: "workbench-session",
    version: 1,
    session: { id: sessionID, title: "Three writes", agent: "build", createdAt: 1_700_000_000_000, messages, calls },
  };
}

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
  const session = writes([
    { prompt: "write one", path: "one.txt", content: "1\n" },
    { prompt: "write two", path: "two.txt", content: "2\n" },
    { prompt: "write three", path: "three.txt", content: "3\n" },
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
