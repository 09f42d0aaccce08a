/**
 * embed.js, the module docs pages import: its gzip size against the 10 KB budget, and against the
 * workbench's own first-paint JS measured in the same run (the ratio says how little a host page pays
 * before the reader asks for the workbench). Also checks it stands alone: no imports of other chunks,
 * no AI SDK, no Solid. Reports only; nothing fails on the figures.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_GZIP = 10 * 1024;
const gz = (text: string | Buffer) => gzipSync(text, { level: 9 }).length;

export function benchEmbedSize() {
  if (!existsSync("dist/embed.js")) execFileSync("npx", ["vite", "build"], { stdio: "ignore" });
  const code = readFileSync("dist/embed.js", "utf8");
  const html = readFileSync("dist/index.html", "utf8");
  const entry = [...html.matchAll(/<script[^>]+src="\/?(assets\/[^"]+\.js)"/g)].map((m) => join("dist", m[1]!));
  const entryGzip = entry.reduce((sum, file) => sum + gz(readFileSync(file)), 0);
  const gzip = gz(code);
  return {
    benchmark: "embed-size",
    embedJs: { bytes: Buffer.byteLength(code), gzip, budgetGzip: BUDGET_GZIP, underBudget: gzip < BUDGET_GZIP },
    reference: { what: "the workbench's entry script (gzip), for scale", gzip: entryGzip },
    ratio: Number((gzip / entryGzip).toFixed(4)),
    standsAlone: {
      imports: [...code.matchAll(/(?:^|[;\s}])import\s*(?:[\w$*{}\s,]+from\s*)?["'][^"']+["']|import\(/g)].length,
      aiSdk: code.includes("vercel.ai.error"),
      solid: /createSignal|createRoot|solid-js/.test(code),
    },
  };
}
