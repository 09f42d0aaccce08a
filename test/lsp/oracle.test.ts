/**
 * The language service against the oracle: real `tsc --noEmit -p` on the same folder must report the same
 * errors (file, line, column, code and message), with the workspace's tsconfig.json and the type packages in
 * its node_modules (an @types package included automatically, a package with its own "types").
 */
import { afterEach, describe, expect, it } from "vitest";
import { inProcessBackend } from "../../src/lsp/in-process.js";
import { runtimeFiles } from "../../src/workspace/language-service.js";
import { lspWorkspace, runTsc } from "./support.js";

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

const FIXTURE: Record<string, string> = {
  "tsconfig.json": `{
  // comments are allowed here, as tsc allows them
  "compilerOptions": { "strict": true, "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "noEmit": true, "noUnusedLocals": true },
  "include": ["src"]
}
`,
  "package.json": JSON.stringify({ name: "fixture", type: "module" }),
  "node_modules/@types/greeting/index.d.ts": "declare function greet(name: string): string;\n",
  "node_modules/@types/greeting/package.json": JSON.stringify({ name: "@types/greeting", types: "index.d.ts" }),
  "node_modules/typed-lib/package.json": JSON.stringify({
    name: "typed-lib",
    type: "module",
    types: "./lib/index.d.ts",
    exports: { ".": { types: "./lib/index.d.ts", default: "./lib/index.js" } },
  }),
  "node_modules/typed-lib/lib/index.d.ts":
    "export declare function parse(text: string): number;\nexport interface Options { strict: boolean }\n",
  "src/shapes.ts":
    "export interface Shape { kind: 'circle' | 'square'; size: number }\nexport function area(shape: Shape): number {\n  return shape.kind === 'circle' ? Math.PI * shape.size ** 2 : shape.size ** 2;\n}\n",
  "src/main.ts": [
    "import { area, type Shape } from './shapes.js';",
    "import { parse, type Options } from 'typed-lib';",
    "import { missing } from './nowhere.js';",
    "const s: Shape = { kind: 'triangle', size: 2 };",
    "const n: number = parse(42);",
    "const o: Options = { strict: 'yes' };",
    "const g: number = greet('you');",
    "function loose(x) { return x; }",
    "const unused = 1;",
    "export const total = area(s) + n + g + String(o).length + loose(1) + missing;",
    "",
  ].join("\n"),
  "src/util.ts":
    "export function first<T>(items: T[]): T | undefined {\n  return items[0];\n}\nconst x: string = first([1, 2]);\nexport { x };\n",
  "outside/ignored.ts": "const notIncluded: number = 'tsconfig does not include this folder';\n",
};

describe("diagnostics match tsc --noEmit", () => {
  it("on a fixture with tsconfig.json, an @types package and a typed dependency", async () => {
    const ws = await lspWorkspace(FIXTURE);
    dispose = ws.dispose;
    const expected = await runTsc(ws.root);
    // The fixture is built so that tsc finds errors of each kind in more than one file.
    expect(new Set(expected.map((e) => e.code))).toEqual(new Set([2322, 2345, 2307, 7006, 6133]));
    expect(new Set(expected.map((e) => e.file))).toEqual(new Set([ws.path("src/main.ts"), ws.path("src/util.ts")]));

    const backend = await inProcessBackend(ws.root, runtimeFiles(ws.runtime));
    const files = [ws.path("src/main.ts"), ws.path("src/util.ts"), ws.path("src/shapes.ts")];
    const found = await backend.diagnostics(files);
    const actual = files.flatMap((file) =>
      (found[file] ?? [])
        .filter((d) => d.severity === 1)
        .map((d) => ({ file, line: d.line + 1, column: d.character + 1, code: d.code, message: d.message.split("\n")[0] })),
    );
    const sort = <T extends { file: string; line: number; column: number }>(list: T[]) =>
      [...list].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
    // A union's members are printed in the order the checker first met their types, which depends on which
    // file was checked first (tsc checks all in order, an editor the open one): compared as sets.
    const unionsSorted = (message: string | undefined) =>
      (message ?? "").replace(/'([^']*\|[^']*)'/g, (_m, union: string) => `'${union.split(" | ").sort().join(" | ")}'`);
    const normalise = <T extends { message?: string }>(list: T[]) => list.map((e) => ({ ...e, message: unionsSorted(e.message) }));
    expect(sort(normalise(actual))).toEqual(sort(normalise(expected)));
  });
});
