/**
 * python3 in the CLI's embedded runtime must never reach the real machine: a folder outside every workspace
 * holds a sentinel file, and each attack (Python's own calls, then Pyodide's `js` module reaching node's
 * process, fs, child_process, workers and the IPC channel) tries to read it, change it or write beside it,
 * or to reach a server on the machine.
 * After each, the sentinel is untouched and was never printed. The program also cannot write outside the
 * workspace root of the runtime (a forged message naming other paths is refused), and Stop, the timeout
 * and unbounded allocation end as promised.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { pythonRuntime, START_MS } from "../runtime/python/support.js";

const SECRET = "sentinel-7f3a: never to be seen by python3";
let outside: string;
let runtime: EmbeddedRuntime;

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), "wb-python-outside-"));
  await writeFile(join(outside, "sentinel.txt"), SECRET);
  process.env.WB_PYTHON_TEST_SECRET = SECRET;
  runtime = await pythonRuntime();
  await runtime.fs.mkdir("/outside");
  await runtime.fs.writeFile("/outside/kept.txt", SECRET);
  await runtime.exec("python3 -c pass", { timeoutMs: START_MS });
}, START_MS);

afterAll(async () => {
  delete process.env.WB_PYTHON_TEST_SECRET;
  await runtime?.dispose();
  await rm(outside, { recursive: true, force: true });
});

async function assertUntouched(output: string): Promise<void> {
  expect(output).not.toContain(SECRET);
  expect(await readdir(outside)).toEqual(["sentinel.txt"]);
  expect(await readFile(join(outside, "sentinel.txt"), "utf8")).toBe(SECRET);
  expect((await runtime.fs.readdir("/outside")).map((entry) => entry.name)).toEqual(["kept.txt"]);
  expect(new TextDecoder().decode(await runtime.fs.readFile("/outside/kept.txt"))).toBe(SECRET);
}

function python(source: string): string {
  return `python3 - <<'PY'\n${source}\nPY`;
}

const target = () => join(outside, "sentinel.txt");
const beside = () => join(outside, "evil.txt");

const attacks: [name: string, source: () => string][] = [
  ["open() on the machine's path", () => `print(open(${JSON.stringify(target())}).read())`],
  ["open() for writing beside it", () => `open(${JSON.stringify(beside())}, "w").write("x")`],
  ["os.system", () => `import os\nos.system("touch ${beside()}; cat ${target()}")`],
  ["subprocess", () => `import subprocess\nsubprocess.run(["sh", "-c", "touch ${beside()}"])`],
  ["os.posix_spawn", () => `import os\nos.posix_spawn("/bin/sh", ["sh", "-c", "touch ${beside()}"], {})`],
  ["js: node's fs reads", () => `import js\nprint(js.process.getBuiltinModule("fs").readFileSync(${JSON.stringify(target())}, "utf8"))`],
  ["js: node's fs writes", () => `import js\njs.process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(beside())}, "x")`],
  ["js: node's fs removes", () => `import js\njs.process.getBuiltinModule("fs").rmSync(${JSON.stringify(target())})`],
  [
    "js: child_process",
    () => `import js\nprint(js.process.getBuiltinModule("child_process").execSync("cat ${target()}; touch ${beside()}"))`,
  ],
  [
    "js: child_process through a dynamic import",
    () => `import js\njs.eval("import('node:child_process').then(m => m.execSync('touch ${beside()}'))")\nimport time\ntime.sleep(0.5)`,
  ],
  [
    "js: a worker thread",
    () =>
      `import js\nW = js.process.getBuiltinModule("worker_threads").Worker\nW.new("require('fs').writeFileSync('${beside()}', 'x')", js.Object.fromEntries([["eval", True]]))`,
  ],
  ["js: process.binding", () => `import js\nprint(js.process.binding("fs"))`],
  ["js: the environment holds no secret of ours", () => `import js\nprint(dict(js.Object.entries(js.process.env)))`],
  ["js: a native addon", () => `import js\njs.process.dlopen(js.Object.new(), "/usr/lib/x86_64-linux-gnu/libc.so.6")`],
];

describe("python3 cannot reach the machine from the CLI", () => {
  for (const [name, source] of attacks) {
    it(
      name,
      async () => {
        const result = await runtime.exec(python(source()), { timeoutMs: 60_000 });
        await assertUntouched(result.output);
        // And the sandbox survived the attempt.
        expect((await runtime.exec("python3 -c 'print(6 * 7)'", { timeoutMs: START_MS })).stdout).toBe("42\n");
      },
      START_MS,
    );
  }

  it("the environment the program sees is only the command's", async () => {
    const result = await runtime.exec(
      "python3 -c 'import os, js; print(sorted(js.Object.keys(js.process.env)), \"WB_PYTHON_TEST_SECRET\" in os.environ)'",
      {
        timeoutMs: 60_000,
      },
    );
    expect(result.stdout).toBe("['WB_PYODIDE_DIR'] False\n");
  }, 90_000);
});

describe("python3 cannot reach a server on the machine from the CLI", () => {
  let hits = 0;
  let server: Server;
  let url = "";
  beforeAll(async () => {
    server = createServer((_request, response) => {
      hits++;
      response.end(SECRET);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const requests: [name: string, source: () => string][] = [
    ["node's http module", () => `import js\njs.process.getBuiltinModule("http").get("${url}")`],
    [
      "node's net module",
      () => `import js\njs.process.getBuiltinModule("net").connect(int("${url}".split(":")[2].strip("/")), "127.0.0.1")`,
    ],
    ["fetch", () => `import js\njs.fetch("${url}")`],
  ];
  for (const [name, source] of requests) {
    it(name, async () => {
      const result = await runtime.exec(python(source()), { timeoutMs: 60_000 });
      // A request made by the program would leave once the sandbox's event loop runs again.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hits).toBe(0);
      expect(result.output).not.toContain(SECRET);
    }, 90_000);
  }
});

describe("python3 writes only inside the workspace", () => {
  it("a path outside the root stays in Python's memory", async () => {
    const result = await runtime.exec(
      python(
        'import os\nos.makedirs("/outside", exist_ok=True)\nopen("/outside/kept.txt", "w").write("changed")\nopen("/outside/new.txt", "w").write("x")\nos.makedirs("/tmp/made")\nprint("done")',
      ),
      { timeoutMs: 60_000 },
    );
    expect(result.stdout).toBe("done\n");
    await assertUntouched(result.output);
    await expect(runtime.fs.stat("/tmp/made")).rejects.toThrow();
  }, 90_000);

  it(
    "a forged exit message naming paths outside the root is refused",
    async () => {
      // The program posts what the sandbox itself would, with the run's id guessed over a range.
      const forge = [
        "import js",
        "from pyodide.ffi import to_js",
        "for guess in range(1, 200):",
        "    data = js.Uint8Array.new([101, 118, 105, 108])",
        '    writes = [to_js({"path": p, "data": data}, dict_converter=js.Object.fromEntries) for p in ("/outside/kept.txt", "/outside/evil.txt", "/workspace/../outside/evil2.txt", "/workspace")]',
        '    changes = to_js({"writes": writes, "removes": ["/outside", "/workspace/../outside"], "dirs": ["/outside/d"]}, dict_converter=js.Object.fromEntries)',
        '    js.process.send(to_js({"kind": "exit", "id": guess, "code": 0, "changes": changes}, dict_converter=js.Object.fromEntries))',
        'print("sent")',
      ].join("\n");
      const result = await runtime.exec(python(forge), { timeoutMs: 60_000 });
      await assertUntouched(result.output);
      expect((await runtime.fs.readdir("/")).map((entry) => entry.name).sort()).toEqual(["outside", "tmp", "workspace"]);
      // The sandbox still answers afterwards.
      expect((await runtime.exec("python3 -c 'print(6 * 7)'", { timeoutMs: START_MS })).stdout).toBe("42\n");
    },
    START_MS,
  );
});

describe("python3 is stopped as promised", () => {
  it(
    "the call's timeout ends `while True: pass` within 1 s, and the next run works",
    async () => {
      const started = Date.now();
      const result = await runtime.exec("python3 -c 'while True: pass'", { timeoutMs: 1000 });
      expect(result.timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await runtime.exec("python3 -c 'print(1)'", { timeoutMs: START_MS })).stdout).toBe("1\n");
    },
    START_MS,
  );

  it(
    "Stop ends it within 1 s",
    async () => {
      const controller = new AbortController();
      const started = Date.now();
      const running = runtime.exec("python3 -c 'while True: pass'", { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      const result = await running;
      expect(result.aborted).toBe(true);
      expect(Date.now() - started).toBeLessThan(1300);
      expect((await runtime.exec("python3 -c 'print(2)'", { timeoutMs: START_MS })).stdout).toBe("2\n");
    },
    START_MS,
  );

  it(
    "allocating without end gives MemoryError, and python3 still works after",
    async () => {
      const result = await runtime.exec("python3 -c 'x = [bytearray(2**28) for _ in range(100)]'", { timeoutMs: 120_000 });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/MemoryError\n$/);
      expect((await runtime.exec("python3 -c 'print(3)'", { timeoutMs: START_MS })).stdout).toBe("3\n");
    },
    START_MS,
  );
});
