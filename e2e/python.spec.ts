/**
 * python3 in the page (issue 28): CPython through Pyodide, served from the workbench's own origin and
 * loaded on the first python3 command, in an opaque-origin sandbox. Every request the page makes is
 * watched: nothing may leave the origin, and nothing of Pyodide may load before python3 is first run.
 */
import type { Page } from "@playwright/test";
import { expect, freshWorkspace, openWorkbench, runInTerminal, screenLines, terminal, test, waitForIdle } from "./fixtures.js";

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
    'probe("indexedDB", "indexedDB.open(`workbench`).readyState")',
    'probe("request", "(() => { const x = new XMLHttpRequest(); x.open(`GET`, `/`, false); x.send(); return x.status })()")',
  ].join("\\n");
  await run(page, `printf '${probes}\\n' > probe.py && python3 probe.py`, FIRST_RUN_MS);
  const text = await terminalText(page);
  expect(text).toContain("origin REACHED null");
  for (const name of ["document", "parent", "localStorage", "indexedDB", "request"]) expect(text).toContain(`${name} blocked`);
  expect(await page.evaluate(() => window.localStorage.getItem("python-attack-probe"))).toBe("kept");
  expect(await page.evaluate(() => document.cookie)).toContain("probe=kept");
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).sort())).toEqual(databasesBefore);
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
