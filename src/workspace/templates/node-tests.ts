import type { Template } from "./template.js";

const SUM = `/** Adds the numbers in a list; an empty list sums to 0. */
export function sum(numbers) {
  return numbers.reduce((total, n) => total + n, 0);
}
`;

const SUM_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import { sum } from "./sum.js";

test("sums a list", () => {
  assert.equal(sum([1, 2, 3]), 6);
});

test("an empty list sums to 0", () => {
  assert.equal(sum([]), 0);
});
`;

const PACKAGE = `{
  "name": "node-tests",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "test": "node --test"
  }
}
`;

const README = `# Node project

A module with tests for Node's own runner. In the terminal: \`cd node-tests && node --test\`.
`;

export const nodeTests: Template = {
  id: "node-tests",
  title: "Node project with tests",
  summary: "A module and its node --test tests.",
  main: "sum.js",
  files: { "package.json": PACKAGE, "sum.js": SUM, "sum.test.js": SUM_TEST, "README.md": README },
};
