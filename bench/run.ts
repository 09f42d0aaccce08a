// `npm run bench`: runs every benchmark and writes one JSON file per run to bench/results/.
// `npm run bench -- chat-session bundle-size` runs only the named ones (names as in each result's `benchmark`).
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { benchBashLatency } from "./bash-latency.js";
import { benchBashParse } from "./bash-parse.js";
import { benchBulkLoad } from "./bulk-load.js";
import { benchBundleSize } from "./bundle-size.js";
import { benchChatSession } from "./chat-session.js";
import { benchCheckpoint } from "./checkpoint.js";
import { benchCliStart } from "./cli-start.js";
import { benchEditCorpus } from "./edit-corpus.js";
import { benchEditLarge } from "./edit-large.js";
import { benchEmbedSize } from "./embed-size.js";
import { benchExecLatency } from "./exec-latency.js";
import { benchExecuteWorker } from "./execute-worker.js";
import { benchLoopOverhead } from "./loop-overhead.js";
import { benchLspDiagnostics } from "./lsp-diagnostics.js";
import { benchMarkdownStream } from "./markdown-stream.js";
import { benchPythonRun } from "./python-run.js";
import { benchPreview } from "./preview.js";
import { benchNodeRun } from "./node-run.js";
import { benchNodePage } from "./node-page.js";
import { benchNodeComputePage } from "./node-compute-page.js";
import { benchNpmInstall } from "./npm-install.js";
import { benchNpmInstallPage } from "./npm-install-page.js";
import { benchReadDeep } from "./read-deep.js";
import { benchSearch } from "./search.js";
import { benchSearchLongPattern } from "./search-long-pattern.js";
import { benchShareLink } from "./share-link.js";
import { benchStopLatency } from "./stop-latency.js";
import { benchTruncationSink } from "./truncation-sink.js";
import { benchUiStream } from "./ui-stream.js";
import { benchWebfetchConvert } from "./webfetch-convert.js";

// One line each: benchmarks are added by different changes.
const entries: [name: string, run: () => unknown][] = [
  ["exec-latency", benchExecLatency],
  ["stop-latency", benchStopLatency],
  ["bundle-size", benchBundleSize],
  ["read-deep", benchReadDeep],
  ["edit-large", benchEditLarge],
  ["truncation-sink", benchTruncationSink],
  ["edit-corpus", benchEditCorpus],
  ["search", benchSearch],
  ["search-long-pattern", benchSearchLongPattern],
  ["bash-parse", benchBashParse],
  ["bash-latency", benchBashLatency],
  ["ui-stream", benchUiStream],
  ["loop-overhead", benchLoopOverhead],
  ["chat-session", benchChatSession],
  ["markdown-stream", benchMarkdownStream],
  ["embed-size", benchEmbedSize],
  ["bulk-load", benchBulkLoad],
  ["share-link", benchShareLink],
  ["webfetch-convert", benchWebfetchConvert],
  ["lsp-diagnostics", benchLspDiagnostics],
  ["python-run", benchPythonRun],
  ["preview", benchPreview],
  ["checkpoint", benchCheckpoint],
  ["node-run", benchNodeRun],
  ["node-page", benchNodePage],
  ["node-compute-page", benchNodeComputePage],
  ["npm-install", benchNpmInstall],
  ["npm-install-page", benchNpmInstallPage],
  ["cli-start", benchCliStart],
  ["execute-worker", benchExecuteWorker],
];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !entries.some(([known]) => known === name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(", ")}: choose from ${entries.map(([name]) => name).join(", ")}`);
  process.exit(2);
}
const benchmarks: unknown[] = [];
for (const [name, run] of entries) if (wanted.length === 0 || wanted.includes(name)) benchmarks.push(await run());

const report = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadAverage: loadavg().map((n) => Number(n.toFixed(2))) },
  benchmarks,
};
await mkdir("bench/results", { recursive: true });
const file = `bench/results/bench-${report.date.replace(/[:.]/g, "-")}.json`;
await writeFile(file, JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));
console.error(`written to ${file}`);
