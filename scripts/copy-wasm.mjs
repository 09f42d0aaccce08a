// Fills public/wasm from node_modules (run by `npm install`), so the wasm the app loads always
// matches the installed packages and nothing in public/wasm is committed by hand.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, "..", "public", "wasm");
mkdirSync(target, { recursive: true });

const wanted = [
  ["web-tree-sitter", "web-tree-sitter.wasm"],
  ["tree-sitter-bash", "tree-sitter-bash.wasm"],
];
for (const [pkg, file] of wanted) {
  // Looked up by folder, since not every package exports its package.json.
  const source = join(here, "..", "node_modules", pkg, file);
  if (!existsSync(source)) {
    console.error(`copy-wasm: ${source} is missing; reinstall ${pkg}`);
    process.exit(1);
  }
  copyFileSync(source, join(target, file));
}
console.log(`copy-wasm: ${wanted.length} files in public/wasm`);
