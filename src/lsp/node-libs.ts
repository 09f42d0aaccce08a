/** TypeScript's lib files from the installed package, for a project running under Node. */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

let libDir: string | undefined;

export async function nodeLib(name: string): Promise<string | undefined> {
  if (!/^lib\.[\w.]+\.d\.ts$|^lib\.d\.ts$/.test(name)) return undefined;
  libDir ??= dirname(createRequire(import.meta.url).resolve("typescript"));
  return readFile(join(libDir, name), "utf8").catch(() => undefined);
}
