// Node module hooks for `import text from "./file.txt?raw"`, which Vite handles in the browser and in
// tests: the CLI imports the same tool modules, descriptions included.
import { readFile } from "node:fs/promises";

export async function resolve(specifier, context, next) {
  if (!specifier.endsWith("?raw")) return next(specifier, context);
  const resolved = await next(specifier.slice(0, -"?raw".length), context);
  return { url: `${resolved.url}?raw`, format: "module", shortCircuit: true };
}

export async function load(url, context, next) {
  if (!url.endsWith("?raw")) return next(url, context);
  const text = await readFile(new URL(url.slice(0, -"?raw".length)), "utf8");
  return { format: "module", source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
