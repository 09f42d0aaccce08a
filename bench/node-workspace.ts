/**
 * The workspace `node -e 1` is timed on (issue 26): the sample project and a node_modules of small
 * packages, about 1,500 files in all, as a project with its dependencies installed looks.
 */
import { SAMPLE_FILES } from "../src/workspace/sample-project.js";

const PACKAGES = 149;
const LIB_FILES = 8;

export function nodeWorkspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(SAMPLE_FILES)) files[`sample-project/${path}`] = text;
  for (let p = 0; p < PACKAGES; p++) {
    const name = `pkg-${p}`;
    const base = `sample-project/node_modules/${name}`;
    files[`${base}/package.json`] = JSON.stringify({ name, version: `1.0.${p}`, main: "index.js", license: "MIT" }, null, 2);
    files[`${base}/index.js`] = Array.from({ length: LIB_FILES }, (_, i) => `exports.part${i} = require("./lib/part-${i}.js");`).join("\n");
    for (let i = 0; i < LIB_FILES; i++) {
      files[`${base}/lib/part-${i}.js`] =
        `"use strict";\n// ${name}, part ${i}: a small module, as most of a node_modules is.\n` +
        `module.exports = function part${i}(value) {\n  return { name: ${JSON.stringify(name)}, part: ${i}, value };\n};\n`.repeat(3);
    }
  }
  return files;
}
