import { join } from "pathe";
import type { Runtime, RuntimeFs } from "../types.js";
import type { WcApi, WcFileSystemTree, WcInstance } from "./api.js";
import { createWebContainerRuntime } from "./runtime.js";
import { errorMessage } from "../../base/error-message.js";

type BootFailureReason = "not-isolated" | "unsupported-browser" | "timeout" | "error";

export type BootOutcome = { ok: true; runtime: Runtime; instance: WcInstance } | { ok: false; reason: BootFailureReason; message: string };

export interface BootEnvironment {
  /** `crossOriginIsolated` of the page. */
  isolated: boolean;
  /** SharedArrayBuffer and Atomics.waitAsync, which WebContainer cannot do without. */
  hasSharedMemory: boolean;
}

export function currentEnvironment(): BootEnvironment {
  const atomics = (globalThis as { Atomics?: { waitAsync?: unknown } }).Atomics;
  return {
    isolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
    hasSharedMemory: typeof SharedArrayBuffer !== "undefined" && typeof atomics?.waitAsync === "function",
  };
}

export interface BootOptions {
  timeoutMs: number;
  environment: BootEnvironment;
  /** The files to start with (the current workspace), mounted before the runtime is handed out. */
  from?: Runtime;
  workdirName?: string;
}

/** Reads a whole folder of a runtime into the tree shape `mount()` takes. */
async function toFileSystemTree(fs: RuntimeFs, folder: string): Promise<WcFileSystemTree> {
  const tree: WcFileSystemTree = {};
  for (const entry of await fs.readdir(folder)) {
    const path = join(folder, entry.name);
    if (entry.type === "directory") tree[entry.name] = { directory: await toFileSystemTree(fs, path) };
    else if (entry.type === "symlink") tree[entry.name] = { file: { symlink: await fs.readlink(path) } };
    else tree[entry.name] = { file: { contents: await fs.readFile(path) } };
  }
  return tree;
}

/**
 * Boots a WebContainer, or says why it cannot. `boot()` never settles without the network (it waits
 * for StackBlitz's servers), so it is always raced against a timeout.
 */
export async function bootWebContainer(api: WcApi | (() => Promise<WcApi>), options: BootOptions): Promise<BootOutcome> {
  if (!options.environment.isolated) {
    return {
      ok: false,
      reason: "not-isolated",
      message: "WebContainer needs a cross-origin isolated page (COOP/COEP headers); this page is not, so the embedded runtime stays on.",
    };
  }
  if (!options.environment.hasSharedMemory) {
    return {
      ok: false,
      reason: "unsupported-browser",
      message: "This browser lacks SharedArrayBuffer or Atomics.waitAsync, which WebContainer needs; the embedded runtime stays on.",
    };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), options.timeoutMs)));
  try {
    const booting = (async () => {
      const resolved = typeof api === "function" ? await api() : api;
      return resolved.boot({ coep: "require-corp", workdirName: options.workdirName ?? "workspace" });
    })();
    const winner = await Promise.race([booting, timeout]);
    if (winner === "timeout") {
      return {
        ok: false,
        reason: "timeout",
        message: `WebContainer did not boot within ${Math.round(options.timeoutMs / 1000)} s (it loads from StackBlitz's servers, which this page cannot reach); the embedded runtime stays on.`,
      };
    }
    if (options.from) await winner.mount(await toFileSystemTree(options.from.fs, options.from.root));
    return { ok: true, runtime: createWebContainerRuntime(winner), instance: winner };
  } catch (error) {
    return {
      ok: false,
      reason: "error",
      message: `WebContainer failed to boot: ${errorMessage(error)}; the embedded runtime stays on.`,
    };
  } finally {
    clearTimeout(timer);
  }
}
