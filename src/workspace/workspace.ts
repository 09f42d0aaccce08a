import type { EmbeddedRuntime } from "../runtime/embedded/index.js";
import type { Runtime, RuntimeKind } from "../runtime/types.js";
import type { BootOutcome } from "../runtime/webcontainer/boot.js";
import { ShellLimitsControl } from "./shell-limits.js";
import { acquireWorkspaceLock } from "./workspace-lock.js";

export type RuntimeStatus =
  | { phase: "ready"; kind: RuntimeKind; detail: string }
  | { phase: "booting"; kind: "embedded"; detail: string }
  | { phase: "fallback"; kind: "embedded"; detail: string; requested: RuntimeKind };

export interface WorkspaceOptions {
  name: string;
  requested: RuntimeKind;
  bootTimeoutMs: number;
  memoryOnly: boolean;
  /** Lift just-bash's loop and command-count limits (a runaway loop then runs until Ctrl-C). */
  unlimited: boolean;
}

/** What opening the embedded runtime needs from the platform (the browser's, or a test's). */
export interface WorkspacePlatform {
  openEmbedded(options: {
    name: string;
    readOnly: boolean;
    memoryOnly: boolean;
    unlimited: boolean;
  }): Promise<{ runtime: EmbeddedRuntime; storageNotice?: string }>;
  bootWebContainer(from: Runtime, timeoutMs: number): Promise<BootOutcome>;
  acquireLock?: typeof acquireWorkspaceLock;
  /** Where this browser's settings are kept (the shell limits from Settings); none in tests that need none. */
  storage?: Storage;
}

/**
 * One open workspace: its files, the runtime commands run on, and what the user should be told about
 * both (storage that will not survive a reload, a second tab, a runtime that could not start).
 */
export class Workspace {
  private active: Runtime;
  private statusValue: RuntimeStatus;
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly options: WorkspaceOptions,
    readonly embedded: EmbeddedRuntime,
    readonly notices: { storage?: string; readOnly?: string },
    private readonly platform: WorkspacePlatform,
    /** The embedded shell's limits and where each comes from (Settings shows and changes them). */
    readonly shellLimits: ShellLimitsControl,
  ) {
    this.active = embedded;
    this.statusValue =
      options.requested === "webcontainer"
        ? { phase: "booting", kind: "embedded", detail: "WebContainer requested: booting it; the embedded runtime serves meanwhile." }
        : { phase: "ready", kind: "embedded", detail: "embedded (just-bash in a worker, files in ZenFS)" };
  }

  static async open(options: WorkspaceOptions, platform: WorkspacePlatform): Promise<Workspace> {
    const lock = await (platform.acquireLock ?? acquireWorkspaceLock)(options.name);
    const readOnly = !lock.held;
    const { runtime, storageNotice } = await platform.openEmbedded({
      name: options.name,
      readOnly,
      memoryOnly: options.memoryOnly,
      unlimited: options.unlimited,
    });
    const notices = {
      storage: storageNotice,
      readOnly: lock.held ? undefined : `${lock.reason} This tab shows it read-only, so the two cannot overwrite each other.`,
    };
    const shellLimits = new ShellLimitsControl(runtime, (limits) => runtime.setLimits(limits), platform.storage, options.unlimited);
    await shellLimits.start();
    return new Workspace(options, runtime, notices, platform, shellLimits);
  }

  get runtime(): Runtime {
    return this.active;
  }

  get status(): RuntimeStatus {
    return this.statusValue;
  }

  get readOnly(): boolean {
    return this.notices.readOnly !== undefined;
  }

  onStatus(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setStatus(status: RuntimeStatus, runtime: Runtime = this.active): void {
    this.statusValue = status;
    this.active = runtime;
    for (const listener of this.listeners) listener();
  }

  /** Starts the runtime that was asked for, when it is not the embedded one. Call after the first paint. */
  async startRequested(): Promise<void> {
    if (this.options.requested !== "webcontainer") return;
    const outcome = await this.platform.bootWebContainer(this.embedded, this.options.bootTimeoutMs);
    if (outcome.ok) {
      this.setStatus(
        { phase: "ready", kind: "webcontainer", detail: "WebContainer (files copied from the workspace; changes stay in the container)" },
        outcome.runtime,
      );
    } else {
      this.setStatus({ phase: "fallback", kind: "embedded", requested: "webcontainer", detail: outcome.message });
    }
  }
}
