/**
 * The node runtime as one script, for sandboxes in node (the CLI, tests, benchmarks): bundled by esbuild
 * (which tsx brings) on first use, and kept on disk under node_modules/.cache keyed by the sources' content,
 * so each worker thread does not bundle it again. The page gets the same script from Vite.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const RUNTIME_DIR = fileURLToPath(new URL("./runtime/", import.meta.url));
const ENTRY = join(RUNTIME_DIR, "entry.ts");
const PROCESS_MODULE = join(RUNTIME_DIR, "process-module.ts");
const CACHE_DIR = fileURLToPath(new URL("../../../../node_modules/.cache/workbench-node-runtime/", import.meta.url));

let cached: Promise<string> | undefined;

async function sourcesKey(): Promise<string> {
  const hash = createHash("sha256");
  for (const name of (await readdir(RUNTIME_DIR)).sort()) hash.update(name).update(await readFile(join(RUNTIME_DIR, name)));
  hash.update(await readFile(fileURLToPath(new URL("./protocol.ts", import.meta.url))));
  hash.update(await readFile(fileURLToPath(new URL("../../../../package-lock.json", import.meta.url))));
  return hash.digest("hex").slice(0, 16);
}

async function build(): Promise<string> {
  const key = await sourcesKey();
  const file = join(CACHE_DIR, `${key}.js`);
  try {
    return await readFile(file, "utf8");
  } catch {
    // Not built yet for these sources.
  }
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: false,
    keepNames: true,
    logLevel: "silent",
    plugins: [
      {
        name: "workbench-process",
        setup(build) {
          // readable-stream asks for `process/`: it gets the program's process.
          build.onResolve({ filter: /^process\/?$/ }, () => ({ path: PROCESS_MODULE }));
        },
      },
    ],
  });
  const code = result.outputFiles[0]!.text;
  await mkdir(CACHE_DIR, { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, code);
  await rename(temporary, file);
  return code;
}

/** The runtime's script (built once per process). */
export function nodeRuntimeScript(): Promise<string> {
  cached ??= build().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
