/**
 * The built app's weight: the JS a first visit must load before anything shows (the entry chunk
 * and the chunks it imports statically), all JS (the shell worker and lazy chunks included), and wasm.
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
      queue.push(join("dist/assets", m[1]!));
    }
  }
  const all = files("dist");
  const js = all.filter((f) => f.endsWith(".js"));
  const wasm = all.filter((f) => f.endsWith(".wasm"));
  const kb = (n: number) => Number((n / 1024).toFixed(1));
  return {
    benchmark: "bundle-size",
    initialJs: { files: [...initial].map((f) => f.replace("dist/", "")), rawKiB: kb([...initial].reduce((s, f) => s + statSync(f).size, 0)), gzipKiB: kb([...initial].reduce((s, f) => s + gz(f), 0)) },
    totalJs: { files: js.length, rawKiB: kb(js.reduce((s, f) => s + statSync(f).size, 0)), gzipKiB: kb(js.reduce((s, f) => s + gz(f), 0)) },
    wasm: { files: wasm.map((f) => f.replace("dist/", "")), rawKiB: kb(wasm.reduce((s, f) => s + statSync(f).size, 0)), gzipKiB: kb(wasm.reduce((s, f) => s + gz(f), 0)) },
  };
}
