/**
 * Issue 17, the first hour in the workbench, items 1, 2, 3, 9, 10 and 11: each test is a new user's story
 * (what they do, what they see) in Chromium, with screenshots of the changed views in light and dark and
 * at 390 px wide.
 */
import type { Locator, Page } from "@playwright/test";
import {
  callCard,
  expect,
  freshWorkspace,
  openWorkbench,
  runInTerminal,
  runTool,
  screenLines,
  terminal,
  test,
  waitForIdle,
} from "./fixtures.js";

const fresh = () => freshWorkspace("first-hour");
const card = callCard;

async function openSettings(page: Page): Promise<Locator> {
  await expect(page.getByTestId("open-settings")).toBeEnabled();
  await page.getByTestId("open-settings").click();
  const settings = page.getByTestId("settings");
  await expect(settings).toBeVisible();
  return settings;
}

/** Screenshots of `target` in the light theme, the dark one, and (light) at 390 px wide. */
async function shots(page: Page, name: string, target: () => Locator | Page = () => page): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  const theme = async (want: "light" | "dark") => {
    // Dispatched on the button itself: an open dialog's backdrop covers it, and a click there closes the dialog.
    if ((await toggle.getAttribute("data-theme")) !== want) await toggle.dispatchEvent("click");
    await expect(toggle).toHaveAttribute("data-theme", want);
  };
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await theme("light");
  await target().screenshot({ path: `e2e/screenshots/first-hour-${name}-light.png` });
  await theme("dark");
  await target().screenshot({ path: `e2e/screenshots/first-hour-${name}-dark.png` });
  await theme("light");
  // Tall enough that a long card is whole in view.
  await page.setViewportSize({ width: 390, height: 1600 });
  const narrow = target();
  if (narrow !== page) {
    // A phone shows one pane at a time: the one holding the target is brought forward.
    const pane = await (narrow as Locator).evaluate((el) =>
      el.closest(".sidebar") ? "Files" : el.closest(".center-pane") ? "Terminal" : el.closest(".right-pane") ? "Agent" : undefined,
    );
    const button = page.getByTestId("pane-switcher").getByRole("button", { name: pane ?? "Agent" });
    // Dispatched, as for the theme: an open dialog's backdrop covers the bar.
    if (pane && (await button.getAttribute("aria-pressed")) !== "true") await button.dispatchEvent("click");
    await (narrow as Locator).scrollIntoViewIfNeeded();
  }
  await narrow.screenshot({ path: `e2e/screenshots/first-hour-${name}-390.png` });
  await page.setViewportSize(size);
}

async function terminalText(page: Page): Promise<string> {
  return (await screenLines(page)).join("\n");
}

test("1. a million-line pipeline, a long loop and deep recursion just run; a runaway still stops; the limits live in Settings and opencode.json", async ({
  page,
  consoleErrors,
}) => {
  await openWorkbench(page, fresh());
  // What a new user tries first: ordinary work that just-bash's own limits used to refuse.
  await runInTerminal(page, "seq 1 1000000 | wc -l");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("1000000");
  await runInTerminal(page, "n=0; for ((i=0; i<200000; i++)); do n=$((n+1)); done; echo loop=$n");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("loop=200000");
  await runInTerminal(page, "down() { if [ $1 -gt 0 ]; then down $(($1 - 1)); else echo reached-bottom; fi; }; down 3000");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("reached-bottom");

  // A runaway is Ctrl+C's job: it ends, and the prompt comes back.
  await runInTerminal(page, "while true; do :; done");
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  await page.keyboard.press("Control+c");
  await waitForIdle(page);
  await runInTerminal(page, "echo still-here");
  await expect(terminal(page)).toContainText("still-here");

  // They lower a limit in Settings; the next command that passes it says where to change it.
  const settings = await openSettings(page);
  const limits = settings.getByTestId("shell-limits");
  await expect(limits.getByTestId("shell-limit-maxLoopIterations").getByTestId("limit-in-force")).toHaveText("10,000,000");
  await limits.getByLabel("Loop iterations").fill("1000");
  await limits.getByTestId("save-shell-limits").click();
  await expect(limits.getByTestId("shell-limits-status")).toContainText("The next command runs with these limits");
  await expect(limits.getByTestId("shell-limit-maxLoopIterations")).toContainText("In force: 1,000 (set here");
  await limits.scrollIntoViewIfNeeded();
  await shots(page, "settings-shell-limits", () => limits);
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await runInTerminal(page, "for ((i=0; i<5000; i++)); do :; done");
  // The terminal wraps the message over its rows: the rows are joined back into one text. Waiting for the
  // message itself: a loaded machine may not have marked the terminal busy yet when an idle check looks.
  await expect.poll(async () => (await screenLines(page)).join("")).toContain("too many iterations (1000)");
  await waitForIdle(page);
  const text = (await screenLines(page)).join("");
  expect(text).toContain("Settings > Shell limits (Loop iterations)");
  expect(text).toContain('"maxLoopIterations"');
  expect(text).not.toContain("executionLimits");

  // The workspace's opencode.json wins over Settings, and Settings says so.
  await runInTerminal(page, `echo '{ "workbench": { "shell": { "maxLoopIterations": 20000 } } }' > opencode.json`);
  await waitForIdle(page);
  const again = await openSettings(page);
  await expect(again.getByTestId("shell-limit-maxLoopIterations")).toContainText("In force: 20,000 (set by the workspace's opencode.json");
  await page.keyboard.press("Escape");
  await runInTerminal(page, "c=0; for ((i=0; i<15000; i++)); do c=$((c+1)); done; echo counted=$c");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("counted=15000");
  expect(consoleErrors).toEqual([]);
});

test("2. a command that fails shows its exit code beside the completed badge, 127 and 126 in words", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runTool(page, "bash", { command: "nosuchcommand --help", description: "Runs a missing command" });
  const missing = card(page, 0);
  await expect(missing).toHaveAttribute("data-state", "completed");
  await expect(missing.getByTestId("call-state")).toHaveText("completed");
  await expect(missing.getByTestId("call-exit-code")).toHaveText("exit 127 · not found");
  await runTool(page, "bash", { command: "echo partial; exit 3", description: "Fails with 3" });
  await expect(card(page, 1).getByTestId("call-exit-code")).toHaveText("exit 3");
  await runTool(page, "bash", { command: "echo fine", description: "Succeeds" });
  await expect(card(page, 2)).toHaveAttribute("data-state", "completed");
  await expect(card(page, 2).getByTestId("call-exit-code")).toHaveCount(0);
  // The failure colour: the exit badge is drawn in the error colour, the completed badge is not.
  const colours = await missing.evaluate((element) => ({
    exit: getComputedStyle(element.querySelector("[data-testid=call-exit-code]")!).color,
    state: getComputedStyle(element.querySelector("[data-testid=call-state]")!).color,
  }));
  expect(colours.exit).not.toBe(colours.state);
  await shots(page, "exit-code", () => missing);
});

test("3. a loop's output arrives line by line while it runs, in the terminal and in the bash card", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "for i in 1 2 3; do echo tick-$i; sleep 1; done; echo loop-over");
  // The first tick is on screen while the loop still runs (the prompt is not back, no loop-over yet).
  await expect(terminal(page)).toContainText("tick-1");
  await expect(page.locator("[data-testid=terminal][data-busy]")).toBeVisible();
  expect(await screenLines(page)).not.toContain("loop-over");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("loop-over");

  await runTool(page, "bash", { command: "for i in 1 2 3; do echo card-tick-$i; sleep 1.5; done", description: "Ticks slowly" });
  const ticking = card(page, 0);
  const live = ticking.getByTestId("call-live");
  await expect(live).toContainText("card-tick-1");
  await expect(ticking).toHaveAttribute("data-state", "running");
  await expect(live).not.toContainText("card-tick-3");
  await shots(page, "loop-streaming", () => ticking);
  await expect(ticking).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  await expect(ticking.getByTestId("call-output")).toContainText("card-tick-3");

  // A function's output cannot stream in the embedded shell: the card says so, and why, while it runs.
  await runTool(page, "bash", { command: "pause() { echo in-function; sleep 3; }; pause", description: "Calls a function" });
  const inFunction = card(page, 1);
  await expect(inFunction).toHaveAttribute("data-state", "running");
  await expect(inFunction.getByTestId("call-function-note")).toContainText("arrives when the function returns");
  await expect(inFunction).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  await expect(inFunction.getByTestId("call-function-note")).toHaveCount(0);
  await expect(inFunction.getByTestId("call-output")).toContainText("in-function");
});

test("9. aborted, denied and glob cards read as sentences, not as the model's internals", async ({ page }) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, `mkdir -p docs && echo hi > docs/guide.md && echo '{"permission":{"bash":{"rm *":"deny"}}}' > opencode.json`);
  await waitForIdle(page);

  await runTool(page, "bash", { command: "echo started; sleep 30", description: "Waits" });
  const aborted = card(page, 0);
  await expect(aborted.getByTestId("call-live")).toContainText("started");
  await aborted.getByRole("button", { name: "Abort" }).click();
  await expect(aborted).toHaveAttribute("data-state", "aborted");
  await expect(aborted.getByTestId("call-note")).toHaveText("Stopped: you aborted the command.");
  await expect(aborted.getByTestId("call-output")).toContainText("started");
  await expect(aborted).not.toContainText("bash_metadata");
  await shots(page, "aborted-card", () => aborted);

  // A new session reads the config with the deny rule.
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByTestId("open-palette")).toBeEnabled();
  await runTool(page, "bash", { command: "rm docs/guide.md", description: "Removes the guide" });
  const denied = card(page, 0);
  await expect(denied).toHaveAttribute("data-state", "error");
  await expect(denied.getByTestId("call-error")).toContainText("A rule in force denies this call");
  await expect(denied.getByTestId("denied-rules")).toContainText("rm *");
  await expect(denied.getByTestId("denied-rules")).toContainText("deny");
  await expect(denied).not.toContainText('"permission"');
  await shots(page, "denied-card", () => denied);

  await runTool(page, "glob", { pattern: "**/*.md" });
  const glob = card(page, 1);
  await expect(glob).toHaveAttribute("data-state", "completed");
  await expect(glob.locator(".call-title")).toHaveText("**/*.md");
  await runTool(page, "glob", { pattern: "*.md", path: "docs" });
  await expect(card(page, 2).locator(".call-title")).toHaveText(/^\*\.md in \S*docs$/);
  await expect(glob.getByTestId("call-output")).toContainText("guide.md");
  await shots(page, "glob-card", () => glob);
});

test("10. in the terminal Tab completes a command, then a path, a second Tab lists the choices, and Ctrl+R finds an old command", async ({
  page,
}) => {
  await openWorkbench(page, fresh());
  await runInTerminal(page, "mkdir -p src && echo one > src/main.ts && echo two > src/main.tsx && echo notes > README.md");
  await waitForIdle(page);
  await page.locator(".xterm").click();

  // Command names first: "ech" + Tab becomes "echo ".
  await page.keyboard.type("ech");
  await page.keyboard.press("Tab");
  await expect.poll(() => terminalText(page)).toMatch(/\$ echo\s*$/m);
  // Then paths: "REA" + Tab is README.md.
  await page.keyboard.type("REA");
  await page.keyboard.press("Tab");
  await expect.poll(() => terminalText(page)).toMatch(/\$ echo README\.md\s*$/m);
  await page.keyboard.press("Enter");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("README.md");

  // Two candidates: the first Tab completes what they share, the second lists both.
  await page.keyboard.type("cat src/ma");
  await page.keyboard.press("Tab");
  await expect.poll(() => terminalText(page)).toMatch(/\$ cat src\/main\.ts$/m);
  await page.keyboard.press("Tab");
  await expect.poll(() => terminalText(page)).toMatch(/main\.ts +main\.tsx/);
  await page.keyboard.press("x");
  await page.keyboard.press("Enter");
  await waitForIdle(page);
  await expect(terminal(page)).toContainText("two");

  // Ctrl+R: typing part of an old command finds it; Enter runs it again.
  await page.keyboard.press("Control+r");
  await expect.poll(() => terminalText(page)).toContain("(reverse-i-search)`':");
  await page.keyboard.type("READ");
  await expect.poll(() => terminalText(page)).toContain("(reverse-i-search)`READ': echo README.md");
  await shots(page, "terminal-search", () => page.getByTestId("terminal"));
  await page.locator(".xterm").click();
  await page.keyboard.press("Enter");
  // The command ran again: its output is on screen twice.
  await expect.poll(async () => (await screenLines(page)).filter((line) => line === "README.md").length).toBe(2);
  await waitForIdle(page);
});

test("11. Explain says a permission that does not exist is unknown and lists the ones that do", async ({ page }) => {
  await openWorkbench(page, fresh());
  const settings = await openSettings(page);
  const form = settings.getByTestId("explain-form");
  await form.getByLabel("Permission").fill("nonsense");
  await form.getByLabel("Pattern").fill("anything");
  await form.getByRole("button", { name: "Explain" }).click();
  const result = settings.getByTestId("explain-result");
  await expect(result).toHaveAttribute("data-action", "unknown");
  await expect(result).toContainText('"nonsense" is not a permission anything asks for');
  await expect(result).not.toContainText("allow,");
  const known = settings.getByTestId("known-permissions");
  for (const name of ["bash", "edit", "read", "external_directory", "webfetch"]) await expect(known).toContainText(name);
  await result.scrollIntoViewIfNeeded();
  await shots(page, "explain-unknown", () => settings.getByTestId("explain-form").locator(".."));
  // Picking a known one from the list explains it.
  await known.getByRole("button", { name: "bash" }).click();
  await expect(form.getByLabel("Permission")).toHaveValue("bash");
  await form.getByRole("button", { name: "Explain" }).click();
  await expect(result).not.toHaveAttribute("data-action", "unknown");
});
