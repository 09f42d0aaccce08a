/**
 * Latency of `echo hi` through the bash tool (Tool.define's execute: validation, the permission ask,
 * allowed at once, live metadata, the streaming truncation), on each backend, next to the bare runtime.exec
 * of the same command in the same run, so the tool's own cost shows. The webcontainer row is the in-memory
 * stand-in (test/support/webcontainer-standin.ts: just-bash behind the WebContainer API), not a real
 * WebContainer, which cannot boot without StackBlitz's servers.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import type { Runtime } from "../src/runtime/types.js";
import { bootWebContainer } from "../src/runtime/webcontainer/boot.js";
import { BashTool } from "../src/tools/bash.js";
import { Bus } from "../src/tools/bus.js";
import { FileTime } from "../src/tools/file-time.js";
import type { Context } from "../src/tools/tool.js";
import { OutputStore, TruncationSink, truncateOutput } from "../src/tools/truncation/index.js";
import { createWebContainerStandin } from "../test/support/webcontainer-standin.js";

interface Stats {
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
}

async function timeRuns(runs: number, once: () => Promise<void>): Promise<Stats> {
  for (let i = 0; i < 3; i++) await once(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3));
  return { runs, medianMs: at(0.5), p90Ms: at(0.9), minMs: at(0) };
}

function allowingContext(runtime: Runtime): Context {
  const store = new OutputStore(runtime, { dataDir: `${runtime.root}/.bench-data` });
  const hint = { taskAvailable: false };
  return {
    sessionID: "ses_bench",
    messageID: "msg_bench",
    agent: "build",
    abort: new AbortController().signal,
    metadata() {},
    ask: async () => {},
    runtime,
    directory: runtime.root,
    worktree: runtime.root,
    fileTime: new FileTime(runtime.fs),
    bus: new Bus(),
    truncate: (text, options = {}) => truncateOutput(text, options, store, hint),
    truncationStream: (options = {}) => new TruncationSink(store, options, hint),
  };
}

async function backendsToMeasure() {
  const root = await mkdtemp(join(tmpdir(), "workbench-bench-bash-"));
  const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  await embedded.warm();
  const booted = await bootWebContainer(createWebContainerStandin(), {
    timeoutMs: 5_000,
    environment: { isolated: true, hasSharedMemory: true },
  });
  if (!booted.ok) throw new Error(booted.message);
  return {
    list: [
      { name: "embedded", runtime: embedded as Runtime },
      { name: "node", runtime: createNodeRuntime({ root }) },
      { name: "webcontainer (stand-in: just-bash behind the WebContainer API, not a real WebContainer)", runtime: booted.runtime },
    ],
    async dispose() {
      await embedded.dispose();
      await booted.runtime.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export async function benchBashLatency(runs = 40) {
  const tool = await BashTool.init();
  const backends = await backendsToMeasure();
  const results = [];
  try {
    for (const { name, runtime } of backends.list) {
      const ctx = allowingContext(runtime);
      const throughTool = await timeRuns(runs, async () => {
        const result = await tool.execute({ command: "echo hi", description: "Says hi" }, ctx);
        if (result.output !== "hi\n") throw new Error(`${name}: the tool gave ${JSON.stringify(result.output)}`);
      });
      const bareExec = await timeRuns(runs, async () => {
        const result = await runtime.exec("echo hi");
        if (result.stdout !== "hi\n") throw new Error(`${name}: exec gave ${JSON.stringify(result.stdout)}`);
      });
      results.push({
        backend: name,
        tool: throughTool,
        exec: bareExec,
        toolOverheadMedianMs: Number((throughTool.medianMs - bareExec.medianMs).toFixed(3)),
      });
    }
  } finally {
    await backends.dispose();
  }
  return {
    benchmark: "bash-latency",
    command: "echo hi",
    reference: "runtime.exec of the same command on the same backend, same run",
    results,
  };
}
