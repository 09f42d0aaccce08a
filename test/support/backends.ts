import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import type { Runtime } from "../../src/runtime/types.js";
import { bootWebContainer } from "../../src/runtime/webcontainer/boot.js";
import { createWebContainerStandin } from "./webcontainer-standin.js";

export interface Backend {
  name: string;
  /** Output reaches onOutput while the command is still running (not true of the stand-in). */
  streamsLive: boolean;
  /** Each top-level statement's output reaches onOutput when that statement ends (live streaming implies it). */
  streamsStatements: boolean;
  create(): Promise<{ runtime: Runtime; cleanup(): Promise<void> }>;
}

export const backends: Backend[] = [
  {
    name: "embedded",
    streamsLive: false,
    streamsStatements: true,
    async create() {
      const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
      return { runtime, cleanup: () => runtime.dispose() };
    },
  },
  {
    name: "node",
    streamsLive: true,
    streamsStatements: true,
    async create() {
      const root = await mkdtemp(join(tmpdir(), "workbench-contract-"));
      const runtime = createNodeRuntime({ root });
      return { runtime, cleanup: () => rm(root, { recursive: true, force: true }) };
    },
  },
  {
    name: "webcontainer (stand-in)",
    streamsLive: false,
    streamsStatements: false,
    async create() {
      const outcome = await bootWebContainer(createWebContainerStandin(), {
        timeoutMs: 5_000,
        environment: { isolated: true, hasSharedMemory: true },
      });
      if (!outcome.ok) throw new Error(outcome.message);
      const runtime = outcome.runtime;
      return { runtime, cleanup: () => runtime.dispose() };
    },
  },
];
