/**
 * python3 in the embedded shell against real python3 on this machine: the same command line on identical
 * copies of a workspace must print the same stdout, exit the same way and leave the same files. Only
 * behaviour that is stable across CPython versions is compared (the machine's python3 and Pyodide's differ
 * in minor version), and never stderr's exact text, but some cases check a line of it.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { pythonRuntime, runEmbedded, runReal, START_MS, type Files } from "./support.js";

let runtime: EmbeddedRuntime;
beforeAll(async () => {
  runtime = await pythonRuntime();
  // Loads Pyodide once for the whole file.
  await runtime.exec("python3 -c pass", { timeoutMs: START_MS });
}, START_MS);
afterAll(() => runtime?.dispose());

interface Case {
  name: string;
  files?: Files;
  command: string;
}

const tests = `import unittest
from calc import add, div

class CalcTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_div(self):
        self.assertEqual(div(6, 3), 2)

    def test_div_zero(self):
        with self.assertRaises(ZeroDivisionError):
            div(1, 0)
`;

const cases: Case[] = [
  { name: "-c prints", command: "python3 -c 'print(1 + 1)'" },
  { name: "python is python3", command: "python -c 'import sys; print(sys.version_info[0])'" },
  { name: "-c argv and sys.path[0]", command: "python3 -c 'import sys; print(sys.argv, repr(sys.path[0]))' a 'b c' -x" },
  {
    name: "script argv, __name__ and sys.path[0]",
    files: { "sub/main.py": "import sys, os\nprint(sys.argv, __name__, os.path.basename(sys.path[0]))\n" },
    command: "python3 sub/main.py one --two",
  },
  { name: "sys.exit with a code", command: "python3 -c 'import sys; print(\"x\"); sys.exit(3)'; echo code=$?" },
  { name: "sys.exit with a message", command: "python3 -c 'import sys; sys.exit(\"bad thing\")'; echo code=$?" },
  { name: "sys.exit(None) and True", command: "python3 -c 'raise SystemExit'; echo $?; python3 -c 'raise SystemExit(True)'; echo $?" },
  { name: "exit codes wrap at 256", command: "python3 -c 'import sys; sys.exit(257)'; echo $?" },
  { name: "an exception exits 1 after the output", command: "python3 -c 'print(\"before\"); 1/0'; echo code=$?" },
  { name: "a syntax error exits 1", command: "python3 -c 'print(('; echo code=$?" },
  { name: "a missing file exits 2", command: "python3 nowhere.py; echo code=$?" },
  { name: "a missing module under -m exits 1", command: "python3 -m no_such_module; echo code=$?" },
  { name: "an unknown option exits 2", command: "python3 --bogus-option; echo code=$?" },
  { name: "-u and -B are accepted", command: "python3 -u -B -c 'print(42)'" },
  {
    name: "reads what the shell wrote and the shell reads what it wrote",
    command: 'echo hello > in.txt; python3 -c \'open("out.txt", "w").write(open("in.txt").read().upper())\'; cat out.txt',
  },
  {
    name: "makes folders, renames and removes files",
    files: { "a.txt": "a\n", "old/x.txt": "x\n", "gone/y.txt": "y\n", "keep.txt": "k\n" },
    command:
      'python3 -c \'import os, shutil; os.makedirs("new/deep"); open("new/deep/f.txt", "w").write("f"); os.rename("a.txt", "b.txt"); shutil.rmtree("gone"); os.remove("old/x.txt"); os.mkdir("empty")\'; ls -R',
  },
  {
    name: "binary output to a redirection",
    command: "python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)))' > bytes.bin; wc -c < bytes.bin",
  },
  { name: "unicode output", command: "python3 -c 'print(\"héllo wörld ✓ 🐍\")'" },
  {
    name: "stdout and stderr to separate files",
    command: 'python3 -c \'import sys; print("out"); print("err", file=sys.stderr)\' > o.txt 2> e.txt; cat o.txt e.txt',
  },
  { name: "stdin from a pipe", command: "printf 'a\\nb\\nc\\n' | python3 -c 'import sys; print(len(sys.stdin.readlines()))'" },
  { name: "input() from a pipe", command: "echo 21 | python3 -c 'print(int(input()) * 2)'" },
  { name: "output into a pipe", command: "python3 -c 'for i in range(5): print(i)' | tail -n 2" },
  {
    name: "a piped script",
    files: { "s.py": "import sys\nprint('piped', sys.argv)\n" },
    command: "cat s.py | python3; python3 < s.py; python3 - a b < s.py",
  },
  { name: "a here-document script", command: "python3 <<'EOF'\nx = [i * i for i in range(4)]\nprint(x)\nEOF" },
  {
    name: "json.tool",
    files: { "d.json": '{"b": [1, 2], "a": {"c": null}}' },
    command: "python3 -m json.tool d.json; python3 -m json.tool --sort-keys < d.json",
  },
  {
    name: "a workspace package imports from the script's folder",
    files: {
      "app/main.py": "from lib.util import twice\nprint(twice(21))\n",
      "app/lib/__init__.py": "",
      "app/lib/util.py": "def twice(x):\n    return 2 * x\n",
    },
    command: "python3 app/main.py; cd app && python3 main.py",
  },
  {
    name: "-m runs a workspace module with cwd first on the path",
    files: { "pkg/__init__.py": "", "pkg/tool.py": "import sys\nprint('tool', sys.argv[1:], __name__)\n" },
    command: "python3 -m pkg.tool x y",
  },
  {
    name: "PYTHONPATH puts a vendored folder on the path",
    files: {
      "vendor/greet/__init__.py": "def hello():\n    return 'hello from vendor'\n",
      "app.py": "import greet\nprint(greet.hello())\n",
    },
    command: "PYTHONPATH=vendor python3 app.py; python3 app.py 2>/dev/null; echo code=$?",
  },
  {
    name: "environment variables",
    command: 'export GREETING=hi; FOO=bar python3 -c \'import os; print(os.environ["GREETING"], os.environ["FOO"])\'',
  },
  {
    name: "the current folder",
    files: { "sub/.keep": "" },
    command: "cd sub && python3 -c 'import os; print(os.path.basename(os.getcwd()), sorted(os.listdir(\".\")))'",
  },
  {
    name: "a module edited between two runs is imported afresh",
    command: "echo 'X = 1' > m.py; python3 -c 'import m; print(m.X)'; echo 'X = 2' > m.py; python3 -c 'import m; print(m.X)'",
  },
  {
    name: "module state does not carry over between runs",
    files: { "state.py": "items = []\n" },
    command:
      "python3 -c 'import state; state.items.append(1); print(state.items)'; python3 -c 'import state; state.items.append(1); print(state.items)'",
  },
  { name: "atexit handlers run", command: 'python3 -c \'import atexit; atexit.register(print, "bye"); print("hi")\'' },
  {
    name: "unittest: passing tests",
    files: { "calc.py": "def add(a, b):\n    return a + b\n\ndef div(a, b):\n    return a / b\n", "test_calc.py": tests },
    command: "python3 -m unittest 2>&1 | grep -E '^(Ran|OK|FAILED)' | sed 's/ in .*//'; python3 -m unittest -q; echo code=$?",
  },
  {
    name: "unittest: a failing test",
    files: { "calc.py": "def add(a, b):\n    return a - b\n\ndef div(a, b):\n    return a / b\n", "test_calc.py": tests },
    command:
      "python3 -m unittest 2>&1 | grep -E '^(Ran|OK|FAILED|FAIL:)' | sed 's/ in .*//'; python3 -m unittest test_calc 2>/dev/null; echo code=$?",
  },
  {
    name: "a traceback names the script's line",
    files: { "boom.py": "def f():\n    raise ValueError('boom')\n\nf()\n" },
    command: "python3 boom.py 2>&1 | grep -E '^(Traceback|  File|ValueError)' | sed 's/, in .*//'",
  },
  {
    name: "sys.path[0] of a script given as a folder path",
    files: { "tool/__main__.py": "print('main of folder')\n" },
    command: "python3 tool",
  },
];

describe("python3 against real python3", () => {
  for (const { name, files = {}, command } of cases) {
    it(name, async () => {
      const real = await runReal(files, command);
      const ours = await runEmbedded(runtime, files, command);
      expect(ours).toEqual(real);
    }, 60_000);
  }
});

/** A program made of file operations and prints, written the same way for both. */
const operation = fc.oneof(
  fc.record({
    op: fc.constant("write"),
    name: fc.constantFrom("a.txt", "b.txt", "d/c.txt", "d/e/f.txt"),
    text: fc.string({ maxLength: 20 }),
  }),
  fc.record({ op: fc.constant("append"), name: fc.constantFrom("a.txt", "log.txt"), text: fc.string({ maxLength: 10 }) }),
  fc.record({ op: fc.constant("remove"), name: fc.constantFrom("a.txt", "b.txt", "seed.txt", "d/c.txt") }),
  fc.record({ op: fc.constant("rmtree"), name: fc.constantFrom("d", "d/e", "seeds") }),
  fc.record({ op: fc.constant("print"), a: fc.integer({ min: -1000, max: 1000 }), b: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ op: fc.constant("list") }),
);

function program(ops: Record<string, unknown>[], exitCode: number): string {
  const lines = ["import os, shutil", "os.makedirs('d/e', exist_ok=True)"];
  for (const step of ops as Record<string, string | number>[]) {
    const name = JSON.stringify(step.name);
    if (step.op === "write")
      lines.push(`os.makedirs(os.path.dirname(${name}) or '.', exist_ok=True)`, `open(${name}, 'w').write(${JSON.stringify(step.text)})`);
    else if (step.op === "append") lines.push(`open(${name}, 'a').write(${JSON.stringify(step.text)})`);
    else if (step.op === "remove") lines.push(`os.path.isfile(${name}) and os.remove(${name})`);
    else if (step.op === "rmtree") lines.push(`shutil.rmtree(${name}, ignore_errors=True)`);
    else if (step.op === "print") lines.push(`print(${step.a} // ${step.b}, ${step.a} % ${step.b}, repr(${step.a} / ${step.b}))`);
    else lines.push("print(sorted(os.listdir('.')))");
  }
  lines.push(`raise SystemExit(${exitCode})`);
  return `${lines.join("\n")}\n`;
}

describe("generated programs against real python3", () => {
  it("leave the same files, print the same and exit the same", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 5 }), async (ops, exitCode) => {
        const files: Files = { "prog.py": program(ops, exitCode), "seed.txt": "seed\n", "seeds/one.txt": "1\n" };
        const command = "python3 prog.py; echo code=$?";
        const real = await runReal(files, command);
        const ours = await runEmbedded(runtime, files, command);
        expect(ours).toEqual(real);
      }),
      { numRuns: 25 },
    );
  }, 300_000);
});
