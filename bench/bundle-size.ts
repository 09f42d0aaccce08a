/**
 * The built app's weight: the JS a first visit must load before anything shows (the entry chunk
 * and the chunks it imports statically), all JS (the shell worker and lazy chunks included), and wasm;
 * and whether the AI SDK (`ai`, `@ai-sdk/*`) is in the first-paint chunks, which it should not be: the
 * chat loads the SDK and its providers on first use. Reports only; the budget (250 KB gzip) is beside the
 * figure for the reader, nothing here fails on it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

/** The AI SDK's packages as they appear in a source map's sources. */
const AI_SOURCE = /node_modules\/(?:ai|@ai-sdk\/[^/]+)\//;
/** A string the AI SDK's errors carry (their brand symbol's name): found in a chunk that bundles its code. */
const AI_MARKER = "vercel.ai.error";

/** Which AI SDK packages a chunk bundles: from its source map when there is one, else by the marker. */
function aiSdkIn(file: string): { packages: string[]; marker: boolean } {
  const marker = readFileSync(file, "utf8").includes(AI_MARKER);
  const map = `${file}.map`;
  if (!existsSync(map)) return { packages: marker ? ["(marker only: no source map)"] : [], marker };
  const sources = (JSON.parse(readFileSync(map, "utf8")) as { sources?: string[] }).sources ?? [];
  const packages = new Set(
    sources.flatMap((source) => {
      const match = source.match(/node_modules\/((?:@ai-sdk\/[^/]+)|ai)\//);
      return match && AI_SOURCE.test(source) ? [match[1]!] : [];
    }),
  );
  return { packages: [...packages].sort(), marker };
}

export function benchBundleSize() {
  if (!existsSync("dist/index.html")) execFileSync("npx", ["vite", "build"], { stdio: "ignore" });
  const html = readFileSync("dist/index.html", "utf8");
  const initial = new Set<string>();
  const queue = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => join("dist", m[1]!));
  while (queue.length) {
    const file = queue.pop()!;
    if (initial.has(file)) continue;
    initial.add(file);
    // Static imports of a chunk (not `import(...)`), which load before it runs.
    for (const m of readFileSync(file, "utf8").matchAll(/(?:^|[;\s}])import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      // A chunk's own static imports name files the build wrote; the same words inside a string (a
      // template's sample code) name none.
      const imported = join("dist/assets", m[1]!);
      if (existsSync(imported)) queue.push(imported);
    }
  }
  const all = files("dist");
  const js = all.filter((f) => f.endsWith(".js"));
  const wasm = all.filter((f) => f.endsWith(".wasm"));
  const kb = (n: number) => Number((n / 1024).toFixed(1));
  const aiInitial = [...initial]
    .map((file) => ({ file: file.replace("dist/", ""), ...aiSdkIn(file) }))
    .filter((chunk) => chunk.packages.length > 0 || chunk.marker);
  const aiLazy = js
    .filter((file) => !initial.has(file))
    .map((file) => ({ file: file.replace("dist/", ""), ...aiSdkIn(file) }))
    .filter((chunk) => chunk.packages.length > 0 || chunk.marker);
  const initialGzip = [...initial].reduce((s, f) => s + gz(f), 0);
  return {
    benchmark: "bundle-size",
    initialJs: {
      files: [...initial].map((f) => f.replace("dist/", "")),
      rawKiB: kb([...initial].reduce((s, f) => s + statSync(f).size, 0)),
      gzipKiB: kb(initialGzip),
      budgetGzipKB: 250,
      gzipKB: Number((initialGzip / 1000).toFixed(1)),
    },
    aiSdkInFirstPaint: {
      found: aiInitial.length > 0,
      chunks: aiInitial,
      how: `source maps' sources under node_modules/ai or node_modules/@ai-sdk, and the marker "${AI_MARKER}"`,
    },
    aiSdkLazyChunks: aiLazy.map((chunk) => ({ file: chunk.file, packages: chunk.packages })),
    totalJs: { files: js.length, rawKiB: kb(js.reduce((s, f) => s + statSync(f).size, 0)), gzipKiB: kb(js.reduce((s, f) => s + gz(f), 0)) },
    wasm: {
      files: wasm.map((f) => f.replace("dist/", "")),
      rawKiB: kb(wasm.reduce((s, f) => s + statSync(f).size, 0)),
      gzipKiB: kb(wasm.reduce((s, f) => s + gz(f), 0)),
    },
  };
}

// `node --import ./src/cli/register.mjs bench/bundle-size.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(benchBundleSize(), null, 2));
