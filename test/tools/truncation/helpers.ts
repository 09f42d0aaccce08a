/** Shared set-up for the truncation tests: runtimes on a scratch folder, and small text helpers. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isRuntimeError } from "../../../src/runtime/errors.js";
import { createNodeRuntime } from "../../../src/runtime/node/index.js";
import type { Runtime } from "../../../src/runtime/types.js";
import { backends } from "../../support/backends.js";

export interface Scratch {
  runtime: Runtime;
  /** A data folder inside the runtime's workspace, so it goes away with it. */
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function nodeScratch(): Promise<Scratch> {
  const root = await mkdtemp(join(tmpdir(), "workbench-truncation-"));
  const runtime = createNodeRuntime({ root });
  return { runtime, dataDir: `${root}/.data`, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The backends the sink must work on: the node one (real disk) and the embedded one (ZenFS). */
export const sinkBackends = backends.filter((backend) => backend.name === "node" || backend.name === "embedded");

export async function scratchOn(backend: (typeof backends)[number]): Promise<Scratch> {
  const { runtime, cleanup } = await backend.create();
  return { runtime, dataDir: `${runtime.root}/.data`, cleanup };
}

export const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

export async function exists(runtime: Runtime, path: string): Promise<boolean> {
  try {
    await runtime.fs.stat(path);
    return true;
  } catch (error) {
    if (isRuntimeError(error, "ENOENT")) return false;
    throw error;
  }
}

export const grepHint = (path: string) =>
  `The tool call succeeded but the output was truncated. Full output saved to: ${path}\n` +
  "Use Grep to search the full content or Read with offset/limit to view specific sections.";

export const taskHint = (path: string) =>
  `The tool call succeeded but the output was truncated. Full output saved to: ${path}\n` +
  "Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). " +
  "Do NOT read the full file yourself - delegate to save context.";

/** "line 1\nline 2\n...line n" (no trailing newline). */
export const numbered = (n: number, prefix = "line ") => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join("\n");
