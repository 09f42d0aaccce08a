/**
 * child_process in the embedded shell's `node` against real node (20, on this machine), on identical copies
 * of a workspace: the same program, starting commands both places have (echo, cat, ls, sort, a nested
 * `node -e`), must print the same stdout, exit the same way and leave the same files. The real run's folder
 * path is written as the runtime's.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { readRuntimeTree, readTree, writeTree } from "../support/text-trees.js";

interface Case {
  name: string;
  files: Record<string, string>;
  command: string;
}

const cases: Case[] = [
  {
    name: "exec runs a shell line (&&, pipes, globs) and calls back with its stdout and no error",
    files: {
      "main.js": `const { exec } = require("child_process");
exec("echo one && printf 'b\\\\na\\\\nc\\\\n' | sort && echo *.txt", (error, stdout, stderr) => {
  console.log(JSON.stringify({ error, stdout, stderr }));
});`,
      "x.txt": "x",
      "y.txt": "y",
    },
    command: "node main.js",
  },
  {
    name: "the program's writes are in the workspace for the child, and the child's are in the program's files after",
    files: {
      "main.js": `const fs = require("fs"); const { exec } = require("child_process");
fs.writeFileSync("from-program.txt", "written by the program\\n");
fs.mkdirSync("made/deep", { recursive: true });
fs.unlinkSync("doomed.txt");
exec("cat from-program.txt; ls; echo child > made/deep/from-child.txt; mkdir kid; rm old.txt; echo again >> from-program.txt", (error, stdout) => {
  console.log(error, stdout);
  console.log(fs.readFileSync("made/deep/from-child.txt", "utf8"), fs.existsSync("kid"), fs.existsSync("old.txt"));
  console.log(fs.readFileSync("from-program.txt", "utf8"));
  fs.writeFileSync("after.txt", "after the child\\n");
});`,
      "old.txt": "old",
      "doomed.txt": "doomed",
    },
    command: "node main.js && cat after.txt",
  },
  {
    name: "execFile and spawn without a shell pass arguments as they are: no injection, no expansion",
    files: {
      "main.js": `const { execFile, spawn } = require("child_process");
execFile("echo", ["a; touch pwned", "$HOME", "*.js", "it's"], (error, stdout) => {
  console.log(error, JSON.stringify(stdout));
  const child = spawn("ls", ["-1", "$(touch pwned2)"]);
  child.stderr.on("data", () => {});
  child.on("close", (code) => console.log("ls of a strange name exits non-zero:", code !== 0));
});`,
    },
    command: "node main.js; ls",
  },
  {
    name: "spawn: stdout as a stream, exit then close with the code, a nested node -e",
    files: {
      "main.js": `const { spawn } = require("child_process");
const events = [];
const child = spawn("node", ["-e", "console.log('from the child', process.argv.length); console.error('to stderr'); process.exit(3)"]);
let out = ""; let err = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => (out += chunk));
child.stderr.on("data", (chunk) => (err += chunk));
child.on("spawn", () => events.push("spawn"));
child.on("exit", (code, signal) => events.push("exit " + code + " " + signal));
child.on("close", (code, signal) => {
  events.push("close " + code + " " + signal);
  console.log(JSON.stringify({ out, err, events, exitCode: child.exitCode, pid: typeof child.pid }));
});`,
    },
    command: "node main.js",
  },
  {
    name: "stdin to a child: written and ended, sorted by sort, counted by a nested node",
    files: {
      "main.js": `const { spawn } = require("child_process");
const sort = spawn("sort");
let sorted = "";
sort.stdout.on("data", (chunk) => (sorted += chunk));
sort.on("close", (code) => {
  console.log(code, JSON.stringify(sorted));
  const count = spawn(process.execPath, ["-e", "let n = 0; process.stdin.on('data', (c) => n += c.length); process.stdin.on('end', () => console.log('bytes', n))"]);
  count.stdout.pipe(process.stdout);
  count.stdin.end("twelve bytes");
});
sort.stdin.write("pear\\n");
sort.stdin.write("apple\\n");
sort.stdin.end("fig\\n");`,
    },
    command: "node main.js",
  },
  {
    name: "util.promisify(exec) and (execFile): { stdout, stderr }, and a rejection with code, stdout and stderr",
    files: {
      "main.mjs": `import { exec, execFile } from "node:child_process";
import { promisify } from "node:util";
const run = promisify(exec);
const file = promisify(execFile);
console.log(await run("echo promised; echo warned >&2"));
console.log(await file("cat", ["data.txt"]));
try {
  await run("echo partial; exit 4");
} catch (error) {
  console.log(error.code, error.killed, error.signal, JSON.stringify(error.stdout), error.message.split("\\n")[0]);
}`,
      "data.txt": "some data\n",
    },
    command: "node main.mjs",
  },
  {
    name: "cwd and env options; a child sees the program's process.env by default",
    files: {
      "main.js": `const { exec } = require("child_process");
process.env.FROM_PARENT = "inherited";
exec("pwd; echo $FROM_PARENT", { cwd: "sub" }, (error, stdout) => {
  console.log(stdout);
  exec("echo [$ONLY] [$FROM_PARENT]", { env: { PATH: process.env.PATH, ONLY: "given" } }, (error, stdout) => console.log(stdout));
});`,
      "sub/.keep": "",
    },
    command: "node main.js",
  },
  {
    name: "failures: a command that does not exist (ENOENT without a shell, 127 with one), non-zero exits",
    files: {
      "main.js": `const { spawn, exec, execFile } = require("child_process");
const missing = spawn("no-such-command-here", ["arg"]);
missing.on("error", (error) => console.log("error", error.code, error.errno, error.syscall, error.path, error.spawnargs, error.message));
missing.on("close", (code, signal) => {
  console.log("close", code, signal, missing.pid);
  exec("no-such-command-here", (error) => {
    console.log("exec", error.code, error.killed, error.signal);
    execFile("no-such-command-here", (error, stdout) => {
      console.log("execFile", error.code, JSON.stringify(stdout));
      exec("cat missing.txt", (error, stdout) => console.log("cat", error.code, JSON.stringify(stdout)));
    });
  });
});`,
    },
    command: "node main.js",
  },
  {
    name: "kill: a child killed at once or while it waits ends with SIGTERM; timeout kills; stdio inherit",
    files: {
      "main.js": `const { spawn, exec } = require("child_process");
const soon = spawn("node", ["-e", "setTimeout(() => console.log('never'), 60000)"]);
soon.on("spawn", () => console.log("kill returns", soon.kill()));
soon.on("exit", (code, signal) => {
  console.log("killed at once", code, signal, soon.killed);
  const later = spawn("node", ["-e", "setTimeout(() => console.log('never'), 60000)"]);
  setTimeout(() => later.kill(), 300);
  later.on("close", (code, signal) => {
    console.log("killed later", code, signal);
    exec("node -e 'setTimeout(() => {}, 60000)'", { timeout: 300 }, (error) => {
      console.log("timeout", error.killed, error.signal, error.code);
      spawn("echo", ["inherited output"], { stdio: "inherit" }).on("close", (code) => console.log("inherit closed", code));
    });
  });
});`,
    },
    command: "node main.js",
  },
  {
    name: "the sync forms (the CLI's sandbox blocks on shared memory): execSync, execFileSync, spawnSync, files both ways, timeout",
    files: {
      "main.js": `const cp = require("child_process"); const fs = require("fs");
fs.writeFileSync("note.txt", "from the program\\n");
console.log("before");
console.log(JSON.stringify(cp.execSync("cat note.txt; echo made > child.txt", { encoding: "utf8" })));
console.log(fs.readFileSync("child.txt", "utf8").trim(), Buffer.isBuffer(cp.execSync("echo buffer")));
console.log(String(cp.execFileSync("node", ["-p", "6 * 7"])).trim(), String(cp.execFileSync("echo", ["$HOME; x"])).trim());
const sorted = cp.spawnSync("sort", { input: "pear\\napple\\n", encoding: "utf8" });
console.log(sorted.status, sorted.signal, JSON.stringify(sorted.stdout), sorted.output.length);
const missing = cp.spawnSync("no-such-command-here", ["x"]);
console.log(missing.error.code, missing.error.syscall, missing.status);
try { cp.execSync("echo out; exit 3", { stdio: "pipe" }); } catch (error) { console.log(error.status, error.signal, String(error.stdout).trim(), error.message); }
try { cp.execFileSync("no-such-command-here"); } catch (error) { console.log(error.code); }
try { cp.execSync("node -e 'setTimeout(() => {}, 3000)'", { timeout: 300, stdio: "pipe" }); } catch (error) { console.log(error.code, error.message, error.status, error.signal); }
const slow = cp.spawnSync("node", ["-e", "setTimeout(() => {}, 3000)"], { timeout: 300 });
console.log(slow.error.code, slow.error.message, slow.status, slow.signal);
fs.writeFileSync("after.txt", "after");`,
    },
    command: "node main.js 2>/dev/null; ls",
  },
  {
    name: "require('stream') is Node's Stream with its classes and promises",
    files: {
      "main.js": `const stream = require("stream");
console.log(typeof stream, stream.Stream === stream, typeof stream.Readable, typeof stream.Transform, typeof stream.promises.pipeline, typeof stream.pipeline);
const { Readable } = require("stream");
Readable.from(["a", "b"]).on("data", (chunk) => console.log(chunk));`,
    },
    command: "node main.js",
  },
];

const ROOT = "/workspace";

describe("child_process in the embedded shell's node, against real node", () => {
  let runtime: EmbeddedRuntime;
  let scratch: string;

  beforeAll(async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    scratch = mkdtempSync(join(tmpdir(), "node-child-differential-"));
  });

  afterAll(async () => {
    await runtime.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const [index, testCase] of cases.entries()) {
    it(testCase.name, { timeout: 90_000 }, async () => {
      const real = join(scratch, `case-${index}`);
      writeTree(real, testCase.files);
      const expected = spawnSync("bash", ["-c", testCase.command], {
        cwd: real,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: real },
      });
      const folder = `${ROOT}/case-${index}`;
      for (const [path, text] of Object.entries(testCase.files)) {
        await runtime.fs.mkdir(dirname(`${folder}/${path}`), { recursive: true });
        await runtime.fs.writeFile(`${folder}/${path}`, text);
      }
      const actual = await runtime.exec(testCase.command, { cwd: folder });
      expect(actual.stdout).toBe(expected.stdout.replaceAll(real, folder));
      expect(actual.exitCode).toBe(expected.status);
      expect(await readRuntimeTree(runtime.fs, folder)).toEqual(readTree(real));
    });
  }
});
