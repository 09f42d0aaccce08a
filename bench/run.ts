// `npm run bench`: runs every benchmark and writes one JSON file per run to bench/results/.
import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { benchBashLatency } from "./bash-latency.js";
import { benchBashParse } from "./bash-parse.js";
import { benchBundleSize } from "./bundle-size.js";
import { benchEditCorpus } from "./edit-corpus.js";
import { benchEditLarge } from "./edit-large.js";
import { benchExecLatency } from "./exec-latency.js";
import { benchLoopOverhead } from "./loop-overhead.js";
import { benchMarkdownStream } from "./markdown-stream.js";
import { benchReadDeep } from "./read-deep.js";
import { benchSearch } from "./search.js";
import { benchSearchLongPattern } from "./search-long-pattern.js";
import { benchStopLatency } from "./stop-latency.js";
import { benchTruncationSink } from "./truncation-sink.js";
import { benchUiStream } from "./ui-stream.js";

const report = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  // One line each: benchmarks are added by different changes.
  benchmarks: [
    await benchExecLatency(),
    await benchStopLatency(),
    benchBundleSize(),
    await benchReadDeep(),
    await benchEditLarge(),
    await benchTruncationSink(),
    await benchEditCorpus(),
    await benchSearch(),
    await benchSearchLongPattern(),
    await benchBashParse(),
    await benchBashLatency(),
    await benchUiStream(),
    await benchLoopOverhead(),
    await benchMarkdownStream(),
  ],
};
await mkdir("bench/results", { recursive: true });
const file = `bench/results/bench-${report.date.replace(/[:.]/g, "-")}.json`;
await writeFile(file, JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));
console.error(`written to ${file}`);
