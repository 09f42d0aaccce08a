/**
 * A deny rule holds against every spelling of the command it names. Commands are generated from a grammar
 * of the ways bash lets one write `rm -rf victim`: each word cut into pieces that are quoted ('', "", $'',
 * $'\xHH', $'\NNN'), backslash-escaped, glued with empty quotes or split by line continuations; words
 * separated by spaces, tabs and continuations; the name also as a path; wrapped in env, nice, timeout, nohup,
 * stdbuf, xargs, find -exec, command, exec, time, eval, bash -c, sh -c, braces and subshells, several deep.
 * Each one, derived by the bash tool's permission derivation and decided by the real engine under
 * `{"*": "allow", "rm *": "deny"}`, must be denied.
 *
 * Real bash is the oracle that the generated line really runs `rm -rf victim`: `rm` here is a stand-in on
 * PATH (and, spelled as a path, named by its full path) that records its arguments. As a control, the same
 * generator around `touch victim` must not be denied, and bash must really run that too, so the property
 * cannot pass by denying everything or by generating lines that run nothing.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import { deriveBashPermissions, permissionAsks } from "../../src/tools/bash/index.js";
import { Bus } from "../../src/tools/bus.js";
import { rulesFromConfig } from "../../src/tools/permission/config.js";
import { PermissionEngine } from "../../src/tools/permission/engine.js";

const run = promisify(execFile);

let base: string;
let bin: string;
let work: string;
let log: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "wb-bash-deny-")));
  bin = join(base, "bin");
  work = join(base, "work");
  log = join(base, "log");
  await mkdir(bin);
  await mkdir(work);
  for (const name of ["rm", "touch"]) {
    await writeFile(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$(basename "$0") $*" >> "${log}"\n`);
    await chmod(join(bin, name), 0o755);
  }
});
afterAll(() => rm(base, { recursive: true, force: true }));

// ---- the grammar ----

type Style = "plain" | "backslash" | "single" | "double" | "doubleContinued" | "ansi" | "ansiHex" | "ansiOctal";
const STYLES: Style[] = ["plain", "backslash", "single", "double", "doubleContinued", "ansi", "ansiHex", "ansiOctal"];

function render(text: string, style: Style): string {
  const chars = [...text];
  switch (style) {
    case "plain":
      return text;
    case "backslash":
      return chars.map((c) => `\\${c}`).join("");
    case "single":
      return `'${text}'`;
    case "double":
      return `"${text}"`;
    case "doubleContinued":
      return `"${chars.join("\\\n")}"`;
    case "ansi":
      return `$'${text}'`;
    case "ansiHex":
      return `$'${chars.map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("")}'`;
    case "ansiOctal":
      return `$'${chars.map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`).join("")}'`;
  }
}

const GLUE = ["", "", "", "''", '""', "\\\n"];

/** A word cut into pieces, each spelled its own way, glued with nothing, empty quotes or continuations. */
const spelledWord = (word: string) =>
  fc
    .tuple(
      fc.array(fc.integer({ min: 1, max: Math.max(1, word.length - 1) }), { maxLength: 3 }),
      fc.array(fc.constantFrom(...STYLES), { minLength: 4, maxLength: 4 }),
      fc.array(fc.constantFrom(...GLUE), { minLength: 3, maxLength: 3 }),
    )
    .map(([cuts, styles, glue]) => {
      const points = [...new Set(cuts.filter((c) => c < word.length))].sort((a, b) => a - b);
      const pieces = [0, ...points].map((start, i) => word.slice(start, points[i] ?? word.length));
      return pieces.map((piece, i) => (i > 0 ? glue[i - 1]! : "") + render(piece, styles[i]!)).join("");
    });

const separator = fc.constantFrom(" ", "\t", "  ", " \t ", " \\\n", "\t\\\n", " \\\n  ", "\\\n ");

type Layer =
  | { kind: "program"; words: string }
  | { kind: "xargs" }
  | { kind: "find" }
  | { kind: "shell"; words: string; outermostOnly?: boolean }
  | { kind: "text"; how: "eval" | "bash -c" }
  | { kind: "group"; how: "braces" | "subshell" | "and" }
  | { kind: "assign" };

const layer = fc.constantFrom<Layer>(
  { kind: "program", words: "env" },
  { kind: "program", words: "env A=1" },
  { kind: "program", words: "env -i PATH=BIN:/usr/bin:/bin" },
  { kind: "program", words: "nice" },
  { kind: "program", words: "nice -n 5" },
  { kind: "program", words: "timeout 9" },
  { kind: "program", words: "timeout -s KILL 9" },
  { kind: "program", words: "nohup" },
  { kind: "program", words: "stdbuf -o0" },
  { kind: "xargs" },
  { kind: "find" },
  { kind: "shell", words: "command" },
  { kind: "shell", words: "exec", outermostOnly: true },
  { kind: "shell", words: "time", outermostOnly: true },
  { kind: "text", how: "eval" },
  { kind: "text", how: "bash -c" },
  { kind: "group", how: "braces" },
  { kind: "group", how: "subshell" },
  { kind: "group", how: "and" },
  { kind: "assign" },
);

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Wraps the core in the layers, outermost first; a layer that bash could not run there is left out. */
function wrap(core: string, layers: Layer[], sep: string): string {
  // inShell: the shell reads what comes next (builtins and syntax work); start: a new simple command begins
  // there (an assignment is one); inFind: inside find -exec, where a `;` of our own would end the outer one.
  const apply = (i: number, inShell: boolean, inFind = false, start = true): string => {
    if (i === layers.length) return core;
    const l = layers[i]!;
    const shellOnly = l.kind === "shell" || l.kind === "group" || l.kind === "assign" || (l.kind === "text" && l.how === "eval");
    const skip =
      (shellOnly && !inShell) ||
      (l.kind === "shell" && l.outermostOnly && i > 0) ||
      (l.kind === "find" && inFind) ||
      ((l.kind === "assign" || l.kind === "group") && !start);
    if (skip) return apply(i + 1, inShell, inFind, start);
    switch (l.kind) {
      case "program":
        return `${l.words.replace("BIN", bin)}${sep}${apply(i + 1, false, inFind)}`;
      case "xargs":
        // GNU xargs runs its command once even when its input is empty.
        return `xargs${sep}${apply(i + 1, false, inFind)} < /dev/null`;
      case "find":
        return `find . -maxdepth 0 -exec${sep}${apply(i + 1, false, true)} \\;`;
      case "shell":
        // exec replaces the shell with a program: no builtin after it.
        return `${l.words}${sep}${apply(i + 1, inShell && l.words !== "exec", inFind, l.words === "time")}`;
      case "text":
        return `${l.how}${sep}${quote(apply(i + 1, true))}`;
      case "group":
        if (l.how === "braces") return `{ ${apply(i + 1, true, inFind)}; }`;
        if (l.how === "subshell") return `( ${apply(i + 1, true, inFind)} )`;
        return `true && ${apply(i + 1, true, inFind)}`;
      case "assign":
        return `A=1${sep}${apply(i + 1, true, inFind, false)}`;
    }
  };
  return apply(0, true);
}

function commandLine(words: readonly string[]) {
  const [name, ...rest] = words as [string, ...string[]];
  return fc
    .record({
      name: spelledWord(name),
      asPath: fc.boolean(),
      rest: fc.tuple(...rest.map((w) => spelledWord(w))),
      seps: fc.array(separator, { minLength: rest.length, maxLength: rest.length }),
      layers: fc.array(layer, { maxLength: 3 }),
      wrapSep: separator,
    })
    .map(({ name: spelledName, asPath, rest: args, seps, layers, wrapSep }) => {
      const head = asPath ? `${bin}/${spelledName}` : spelledName;
      const core = [head, ...args.map((a, i) => `${seps[i]}${a}`)].join("");
      return wrap(core, layers, wrapSep);
    });
}

// ---- the judges ----

const rules = rulesFromConfig({ "*": "allow", bash: { "*": "allow", "rm *": "deny" } }, { home: "/home/user" });

/** What the rules make of the bash ask: deny, ask or allow. */
async function decide(command: string): Promise<"deny" | "ask" | "allow"> {
  const derived = await deriveBashPermissions(command, { root: work, workdir: work, fs: createNodeRuntime({ root: work }).fs });
  const ask = permissionAsks(derived).find((a) => a.permission === "bash");
  if (!ask) return "allow";
  const engine = new PermissionEngine({ bus: new Bus() });
  let denied = false;
  const settled = engine.ask({ sessionID: "s", ...ask }, rules).then(
    () => undefined,
    () => {
      denied = true;
    },
  );
  // A question for the user is pending at once; withdraw it rather than wait for an answer.
  const asked = engine.pending().length > 0;
  if (asked) engine.cancelSession("s");
  await settled;
  return asked ? "ask" : denied ? "deny" : "allow";
}

/** What real bash ran, as `name args` lines from the stand-ins. */
async function bashRuns(command: string): Promise<string[]> {
  await writeFile(log, "");
  await run("bash", ["-c", command], { cwd: work, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 10_000 }).catch(
    () => undefined,
  );
  return (await readFile(log, "utf8")).split("\n").filter(Boolean);
}

describe("a deny rule holds against every spelling of the command (property, with real bash as oracle)", () => {
  it("every generated spelling of `rm -rf victim` runs rm in bash and is denied", async () => {
    await fc.assert(
      fc.asyncProperty(commandLine(["rm", "-rf", "victim"]), async (command) => {
        expect(await bashRuns(command), `bash should run rm for ${JSON.stringify(command)}`).toContain("rm -rf victim");
        expect(await decide(command), JSON.stringify(command)).toBe("deny");
      }),
      { numRuns: 150 },
    );
    // 150 real bash processes: on a loaded shared machine that alone can pass the default 30 s.
  }, 120_000);

  it("control: the same spellings of `touch victim` run touch and are not denied", async () => {
    await fc.assert(
      fc.asyncProperty(commandLine(["touch", "victim"]), async (command) => {
        expect(await bashRuns(command), `bash should run touch for ${JSON.stringify(command)}`).toContain("touch victim");
        expect(await decide(command), JSON.stringify(command)).not.toBe("deny");
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it("the grammar reaches the spellings the issue lists", () => {
    const samples = fc.sample(commandLine(["rm", "-rf", "victim"]), { numRuns: 400, seed: 15 });
    expect(samples.some((c) => c.includes("\\\n"))).toBe(true);
    expect(samples.some((c) => c.includes("$'\\x"))).toBe(true);
    expect(samples.some((c) => c.includes("\t"))).toBe(true);
    expect(samples.some((c) => c.startsWith(`${bin}/`))).toBe(true);
    expect(samples.some((c) => c.includes("-exec"))).toBe(true);
    expect(samples.some((c) => c.includes("bash -c"))).toBe(true);
  });
});
