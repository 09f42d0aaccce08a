/**
 * python3 in the page (issue 28): CPython through Pyodide, served from the workbench's own origin and
 * loaded on the first python3 command, in an opaque-origin sandbox. Every request the page makes is
 * watched: nothing may leave the origin, and nothing of Pyodide may load before python3 is first run.
 */
import type { Page } from "@playwright/test";
import { startProviderServer, type ProviderServer } from "../test/support/provider-server.js";
import { expect, freshWorkspace, openWorkbench, runInTerminal, screenLines, terminal, test, waitForIdle } from "./fixtures.js";
import { addLocalProvider } from "./local-provider.js";

/** Loading Pyodide in a busy machine's Chromium takes a while the first time. */
const FIRST_RUN_MS = 120_000;

/** Every URL the page asks for; any request leaving the page's own origin is refused (we are offline). */
async function watchRequests(page: Page): Promise<{ urls: string[]; foreign: string[] }> {
  const seen = { urls: [] as string[], foreign: [] as string[] };
  await page.route("**/*", async (route) => {
    const url = route.request().url();
    seen.urls.push(url);
    const { origin } = new URL(url);
    if (url.startsWith("data:") || url.startsWith("blob:") || origin === new URL(page.url() || url).origin) return route.continue();
    if (origin.startsWith("http://127.0.0.1")) return route.continue();
    seen.foreign.push(url);
    return route.abort();
  });
  return seen;
}

async function run(page: Page, command: string, timeout = 30_000): Promise<void> {
  await runInTerminal(page, command);
  await expect(page.locator("[data-testid=terminal][data-busy]")).toHaveCount(0, { timeout });
  await waitForIdle(page);
}

const terminalText = async (page: Page) => (await screenLines(page)).join("\n");

test("python3 -m unittest runs a workspace's tests in the terminal, offline, with Pyodide from our own origin", async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(FIRST_RUN_MS + 60_000);
  const seen = await watchRequests(page);
  await openWorkbench(page, freshWorkspace("python"));
  // The first paint fetched nothing of Python.
  expect(seen.urls.filter((url) => url.includes("pyodide") || url.includes("frame-sandbox"))).toEqual([]);

  await run(page, "printf 'def add(a, b):\\n    return a - b\\n' > calc.py");
  await run(
    page,
    "printf 'import unittest\\nfrom calc import add\\n\\nclass T(unittest.TestCase):\\n    def test_add(self):\\n        self.assertEqual(add(2, 3), 5)\\n' > test_calc.py",
  );
  await run(page, "python3 -m unittest", FIRST_RUN_MS);
  await expect(terminal(page)).toContainText("FAILED (failures=1)");
  await expect(terminal(page)).toContainText("AssertionError: -1 != 5");
  await run(page, "sed -i 's/a - b/a + b/' calc.py && python3 -m unittest && echo tests-pass");
  await expect(terminal(page)).toContainText("tests-pass");
  expect(await terminalText(page)).toMatch(/Ran 1 test in [\d.]+s\s+OK/);
  await page.getByTestId("terminal").screenshot({ path: "e2e/screenshots/python-unittest.png" });

  // Pyodide came from our origin, and nothing left it.
  const origin = new URL(page.url()).origin;
  for (const file of ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"]) {
    expect(seen.urls).toContain(`${origin}/pyodide/${file}`);
  }
  expect(seen.foreign).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("a program reaches none of the workbench's storage, cookies, DOM or window, and Ctrl+C ends a runaway", async ({ page }) => {
  test.setTimeout(FIRST_RUN_MS + 90_000);
  const seen = await watchRequests(page);
  await openWorkbench(page, freshWorkspace("python-attack"));
  await page.evaluate(() => {
    window.localStorage.setItem("python-attack-probe", "kept");
    document.cookie = "probe=kept; path=/";
  });
  const databasesBefore = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).sort());
  // Double quotes only in Python (the file is written with printf '...'), backticks for JavaScript strings.
  const probes = [
    "import js",
    "def probe(name, source):",
    "    try:",
    '        print(name, "REACHED", js.eval(source))',
    "    except BaseException as error:",
    '        print(name, "blocked", type(error).__name__)',
    'probe("origin", "self.origin")',
    'probe("document", "document.title")',
    'probe("parent", "parent.document.cookie")',
    'probe("localStorage", "localStorage.getItem(`python-attack-probe`)")',
    'probe("indexedDB", "indexedDB.open(`python-probe-db`).readyState")',
    'probe("request", "(() => { const x = new XMLHttpRequest(); x.open(`GET`, `/`, false); x.send(); return x.status })()")',
  ].join("\\n");
  await run(page, `printf '${probes}\\n' > probe.py && python3 probe.py`, FIRST_RUN_MS);
  const text = await terminalText(page);
  expect(text).toContain("origin REACHED null");
  for (const name of ["document", "parent", "localStorage", "indexedDB", "request"]) expect(text).toContain(`${name} blocked`);
  expect(await page.evaluate(() => window.localStorage.getItem("python-attack-probe"))).toBe("kept");
  expect(await page.evaluate(() => document.cookie)).toContain("probe=kept");
  // The probe's database is nowhere in the workbench's origin (the app may add its own meanwhile).
  const databasesAfter = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).sort());
  expect(databasesAfter).not.toContain("python-probe-db");
  expect(databasesAfter).toEqual(expect.arrayContaining(databasesBefore));
  expect(seen.foreign).toEqual([]);

  // A runaway: Ctrl+C ends it within a second and the next python3 works (a new sandbox).
  await runInTerminal(page, "python3 -c 'while True: pass'");
  await expect(page.locator("[data-testid=terminal][data-busy]")).toHaveCount(1);
  await page.waitForTimeout(500);
  const stopped = Date.now();
  await page.keyboard.press("Control+c");
  await waitForIdle(page);
  expect(Date.now() - stopped).toBeLessThan(1500);
  await run(page, "python3 -c 'print(6 * 7)'", FIRST_RUN_MS);
  await expect(terminal(page)).toContainText("42");
});

test.describe("the agent and python3", () => {
  let server: ProviderServer;
  test.beforeEach(async () => {
    server = await startProviderServer({ corsOrigin: "*" });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test("the agent runs python3 -m unittest, sees the failure, edits the code and runs the tests again", async ({ page, consoleErrors }) => {
    test.setTimeout(FIRST_RUN_MS + 90_000);
    const seen = await watchRequests(page);
    await openWorkbench(page, freshWorkspace("python-agent"), "chat");
    await run(page, "printf 'def add(a, b):\\n    return a - b\\n' > calc.py");
    await run(
      page,
      "printf 'import unittest\\nfrom calc import add\\n\\nclass T(unittest.TestCase):\\n    def test_add(self):\\n        self.assertEqual(add(2, 3), 5)\\n' > test_calc.py",
    );
    await addLocalProvider(page, server.openaiBaseURL, "sk-python");
    const unittest = { name: "bash", input: { command: "python3 -m unittest", description: "Run the unit tests" } };
    server.enqueue(
      { step: { toolCalls: [unittest] } },
      { step: { toolCalls: [{ name: "read", input: { filePath: "/workspace/calc.py" } }] } },
      { step: { toolCalls: [{ name: "edit", input: { filePath: "/workspace/calc.py", oldString: "a - b", newString: "a + b" } }] } },
      { step: { toolCalls: [unittest] } },
      { step: { text: "Fixed: add now adds, and the tests pass." } },
    );
    const input = chatPane(page).getByTestId("prompt-input");
    await input.fill("make the tests pass");
    await input.press("Enter");
    await expect(chatPane(page).getByTestId("assistant-message").last()).toContainText("the tests pass", { timeout: FIRST_RUN_MS });
    // What the model was told after each run of the tests.
    expect(toolResults(server, 1)).toContain("FAILED (failures=1)");
    expect(toolResults(server, 1)).toContain("AssertionError: -1 != 5");
    expect(toolResults(server, 4)).toMatch(/Ran 1 test in [\d.]+s\s+OK/);
    await run(page, "cat calc.py");
    await expect(terminal(page)).toContainText("return a + b");
    await page.screenshot({ path: "e2e/screenshots/python-agent.png" });
    expect(seen.foreign).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

const chatPane = (page: Page) => page.getByTestId("chat-pane");

/** The tool results the model was sent in request `index`, the last one's text. */
function toolResults(server: ProviderServer, index: number): string {
  const body = server.requests[index]?.body as { messages: Array<{ role: string; content: unknown }> } | undefined;
  const results = (body?.messages ?? []).filter((message) => message.role === "tool");
  const last = results.at(-1);
  return last === undefined ? "" : typeof last.content === "string" ? last.content : JSON.stringify(last.content);
}
