/**
 * A published pure-Python package's own unittest suite (simplejson 3.18.3, fixtures/README.md) run by the
 * embedded runtime's python3 and by real python3 on identical copies: the same number of tests run and
 * skipped, both through unittest's discovery and through the package's own runner (which adds its
 * doctests). Every test passes as under CPython but the three of test_tool.py that start a process
 * (`subprocess.Popen` of python itself), which Pyodide cannot: they error, saying so.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { pythonRuntime, runEmbedded, runReal, START_MS, type Files } from "./support.js";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;

async function packageFiles(): Promise<Files> {
  const files: Files = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith(".py")) files[relative(FIXTURES, path)] = await readFile(path);
    }
  };
  await walk(join(FIXTURES, "simplejson"));
  return files;
}

let runtime: EmbeddedRuntime;
let files: Files;
beforeAll(async () => {
  files = await packageFiles();
  runtime = await pythonRuntime();
  await runtime.exec("python3 -c pass", { timeoutMs: START_MS });
}, START_MS);
afterAll(() => runtime?.dispose());

/** The summary unittest prints ("Ran N tests" and the result line), each test that erred, and why. */
const summary =
  "2>&1 | grep -E '^(Ran [0-9]+ tests?|OK|FAILED|ERROR:|FAIL:|OSError)' | sed 's/ in [0-9.]*s$//'; echo code=${PIPESTATUS[0]}";

const processTests = ["test_infile_outfile", "test_infile_stdout", "test_stdin_stdout"];

describe("simplejson's own test suite", () => {
  for (const [name, command] of [
    ["unittest discover", `python3 -m unittest discover -s simplejson/tests -t . ${summary}`],
    ["the package's runner, with its doctests", `python3 -c 'import simplejson.tests as t; t.main()' ${summary}`],
  ] as const) {
    it(`${name}: the same counts as real python3`, async () => {
      const real = await runReal(files, command);
      const ours = await runEmbedded(runtime, files, command);
      const [, ran, skipped] = /^Ran (\d{3}) tests\nOK \(skipped=(\d+)\)\ncode=0\n$/.exec(real.stdout) ?? [];
      expect(ran).toBeDefined();
      const errors = processTests
        .map(
          (test) =>
            `ERROR: ${test} (simplejson.tests.test_tool.TestTool.${test})\nOSError: [Errno 138] emscripten does not support processes.\n`,
        )
        .join("");
      expect(ours.stdout).toBe(`${errors}Ran ${ran} tests\nFAILED (errors=3, skipped=${skipped})\ncode=1\n`);
    }, 180_000);
  }
});
