// Fills public/wasm from node_modules (run by `npm install`), so the wasm the app loads always
// matches the installed packages and nothing in public/wasm is committed by hand.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, "..", "public", "wasm");
mkdirSync(target, { recursive: true });

const wanted = [
  ["web-tree-sitter", "web-tree-sitter.wasm", target],
  ["tree-sitter-bash", "tree-sitter-bash.wasm", target],
];
// python3 in the page (src/runtime/embedded/python/browser-sandbox.ts): Pyodide's interpreter, its module
// loader and the standard library, served from our own origin and fetched on the first python3 command.
const pyodideTarget = join(here, "..", "public", "pyodide");
mkdirSync(pyodideTarget, { recursive: true });
for (const file of ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]) {
  wanted.push(["pyodide", file, pyodideTarget]);
}
for (const [pkg, file, folder] of wanted) {
  // Looked up by folder, since not every package exports its package.json.
  const source = join(here, "..", "node_modules", pkg, file);
  if (!existsSync(source)) {
    console.error(`copy-wasm: ${source} is missing; reinstall ${pkg}`);
    process.exit(1);
  }
  copyFileSync(source, join(folder, file));
}
console.log(`copy-wasm: ${wanted.length} files in public/wasm and public/pyodide`);
