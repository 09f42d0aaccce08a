import { browserShellWorkerFactory } from "../runtime/embedded/browser-worker-factory.js";
import { openWorkspaceStorage } from "../runtime/embedded/browser-storage.js";
import { createEmbeddedRuntime } from "../runtime/embedded/index.js";
import { browserPythonSandboxFactory } from "../runtime/embedded/python/browser-sandbox.js";
import type { RuntimeKind } from "../runtime/types.js";
import { loadFiles, type IncomingFile, type LoadOptions } from "./bulk-load.js";
import type { WorkspaceOptions, WorkspacePlatform } from "./workspace.js";

/** The browser's way of opening runtimes: IndexedDB files, Web Worker shells, WebContainer on request. */
export const browserPlatform: WorkspacePlatform = {
  async openEmbedded({ name, readOnly, memoryOnly, unlimited }) {
    const storage = await openWorkspaceStorage(name, { memoryOnly });
    const runtime = await createEmbeddedRuntime({
      workerFactory: browserShellWorkerFactory,
      backing: storage.backing,
      readOnly,
      limits: unlimited ? { maxLoopIterations: null, maxCommandCount: null } : {},
      python: browserPythonSandboxFactory,
    });
    void runtime.warm().catch(() => {});
    return { runtime, storageNotice: storage.notice };
  },
  get storage() {
    try {
      return globalThis.localStorage;
    } catch {
      // A page whose storage is blocked still runs, with the default limits.
      return undefined;
    }
  },
  async bootWebContainer(from, timeoutMs) {
    // Loaded only when asked for (the adapter brings a whole search engine of its own), so neither
    // weighs on the first paint.
    const { bootWebContainer, currentEnvironment } = await import("../runtime/webcontainer/boot.js");
    const api = () => import("@webcontainer/api").then((module) => module.WebContainer);
    return bootWebContainer(api, { timeoutMs, environment: currentEnvironment(), from });
  },
};

const RUNTIME_SETTING = "workbench.runtime";

/**
 * Options from the address (`?runtime=`, `?workspace=`, `?memory=1`, `?bootTimeoutMs=`, `?limits=off`)
 * and the saved runtime setting.
 */
export function optionsFromLocation(location: Location, storage: Storage | undefined): WorkspaceOptions {
  const params = new URLSearchParams(location.search);
  const asked = params.get("runtime") ?? storage?.getItem(RUNTIME_SETTING) ?? "embedded";
  const requested: RuntimeKind = asked === "webcontainer" ? "webcontainer" : "embedded";
  const timeout = Number(params.get("bootTimeoutMs"));
  const name = (params.get("workspace") ?? "default").replace(/[^\w.-]/g, "_").slice(0, 64) || "default";
  return {
    name,
    requested,
    bootTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 20_000,
    memoryOnly: params.get("memory") === "1",
    unlimited: params.get("limits") === "off",
  };
}

export function saveRuntimeSetting(storage: Storage | undefined, kind: RuntimeKind): void {
  storage?.setItem(RUNTIME_SETTING, kind);
}

/**
 * Fills a workspace that nobody has open yet (a share opened into a new one) with files, then closes it:
 * the page that opens it next finds them stored. Refuses when the browser keeps no storage, since the
 * files would be gone before that page opens.
 */
export async function seedWorkspace(name: string, files: readonly IncomingFile[], options: LoadOptions = {}): Promise<void> {
  const storage = await openWorkspaceStorage(name);
  if (!storage.persistent)
    throw new Error(
      `${storage.notice ?? "This browser keeps no storage"} A shared workspace cannot be opened here; use the workbench CLI (workbench open) instead.`,
    );
  const runtime = await createEmbeddedRuntime({ workerFactory: browserShellWorkerFactory, backing: storage.backing });
  try {
    await loadFiles(runtime, runtime.root, files, options);
  } finally {
    await runtime.dispose();
  }
}
