/**
 * A small project to try the desk on, one click from the first visit's welcome: a few files worth
 * searching, opening, running and asking the agent about. Written through the workspace's file import
 * (the runtime's file operations), into a folder of its own; an existing folder is left as it is.
 */
import { isRuntimeError } from "../runtime/errors.js";
import type { Runtime } from "../runtime/types.js";
import { importFiles } from "./transfer.js";

const SAMPLE_FOLDER = "sample-project";

const README = `# Sample project

A tiny TypeScript library to try the workbench on. Nothing here is precious: change anything.

Things to try:

1. **Find in files** (top left): search for \`TODO\` and click a hit: the file opens at that line.
2. **The terminal** (middle): \`cd sample-project && node --test\` runs the tests; \`cat src/greet.ts\`, or \`grep -rn TODO .\`.
3. **The tree**: right-click a name (or press F2, Delete, Shift+F10) to rename, move or delete it.
4. **Tools** (right, Tools tab): press Ctrl+K and run \`grep\` with the pattern \`greet\`.
5. **The agent** (right, Chat tab): with a key added, ask "add a farewell function with a test".
`;

const GREET = `/** Says hello to someone by name; an empty name gets a generic greeting. */
export function greet(name: string): string {
  const who = name.trim();
  // TODO: greet in other languages too (see notes/ideas.md).
  return who === "" ? "Hello!" : \`Hello, \${who}!\`;
}
`;

const GREET_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import { greet } from "./greet.ts";

// Run them in the terminal: \`cd sample-project && node --test\`.
const cases: [string, string][] = [
  ["Ada", "Hello, Ada!"],
  ["  Grace ", "Hello, Grace!"],
  ["", "Hello!"],
];

for (const [input, expected] of cases) {
  test(\`greet(\${JSON.stringify(input)}) says \${expected}\`, () => {
    assert.equal(greet(input), expected);
  });
}
`;

const IDEAS = `# Ideas

- TODO: a \`farewell(name)\` beside \`greet\`.
- Greetings in French ("Bonjour"), German ("Hallo") and Japanese ("こんにちは").
- A command line: \`node cli.js Ada\` prints the greeting.
`;

const PACKAGE = `{
  "name": "sample-project",
  "version": "0.1.0",
  "private": true,
  "type": "module"
}
`;

export const SAMPLE_FILES: Record<string, string> = {
  "README.md": README,
  "package.json": PACKAGE,
  "src/greet.ts": GREET,
  "src/greet.test.ts": GREET_TEST,
  "notes/ideas.md": IDEAS,
};

/**
 * Writes the sample project into the workspace, unless a file or folder of that name is already there
 * (then nothing is written: what the user has is never replaced). Returns the folder and its README.
 */
export async function addSampleProject(runtime: Runtime): Promise<{ folder: string; readme: string; created: boolean }> {
  const folder = `${runtime.root}/${SAMPLE_FOLDER}`;
  const readme = `${folder}/README.md`;
  const exists = await runtime.fs.lstat(folder).then(
    () => true,
    (error: unknown) => {
      if (isRuntimeError(error, "ENOENT")) return false;
      throw error;
    },
  );
  if (exists) return { folder, readme, created: false };
  const encoder = new TextEncoder();
  await importFiles(
    runtime,
    folder,
    Object.entries(SAMPLE_FILES).map(([path, text]) => ({ path, data: encoder.encode(text) })),
  );
  return { folder, readme, created: true };
}
