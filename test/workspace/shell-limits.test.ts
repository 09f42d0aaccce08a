/**
 * Shell limits from Settings and opencode.json (issue 17, item 1): opencode.json's `workbench.shell` wins
 * over Settings, `?limits=off` over both; a change to either reaches the next command; a bad value is
 * reported with its path and does not take effect.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { configProblems } from "../../src/session/config/workspace-config.js";
import { combineLimits, readLimitConfig, saveLimitSettings, ShellLimitsControl } from "../../src/workspace/shell-limits.js";

/** The browser's Storage, as far as the settings use it. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

let runtime: EmbeddedRuntime | undefined;
let control: ShellLimitsControl | undefined;
afterEach(async () => {
  control?.dispose();
  await runtime?.dispose();
  runtime = undefined;
  control = undefined;
});

describe("combineLimits", () => {
  it("takes each limit from the strongest source that sets it", () => {
    const { limits, sources } = combineLimits({
      unlimited: false,
      config: { maxCallDepth: 50 },
      settings: { maxCallDepth: 70, maxLoopIterations: 9 },
    });
    expect(limits).toEqual({ maxLoopIterations: 9, maxCommandCount: 100_000_000, maxCallDepth: 50 });
    expect(sources).toEqual({ maxLoopIterations: "settings", maxCommandCount: "default", maxCallDepth: "opencode.json" });
  });

  it("lifts every limit for ?limits=off", () => {
    const { limits, sources } = combineLimits({ unlimited: true, config: { maxCallDepth: 50 }, settings: {} });
    expect(limits).toEqual({ maxLoopIterations: null, maxCommandCount: null, maxCallDepth: null });
    expect(sources.maxCallDepth).toBe("address");
  });
});

describe("opencode.json's workbench.shell", () => {
  it("is part of the config's schema: a bad value is a problem at its path", () => {
    expect(configProblems({ workbench: { shell: { maxLoopIterations: 5, maxCallDepth: null } } })).toEqual([]);
    const problems = configProblems({ workbench: { shell: { maxLoopIterations: -1 } } });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toContain("workbench.shell.maxLoopIterations");
    expect(problems[0]!.message).toContain("whole number above 0");
    expect(configProblems({ workbench: { shell: { maxLoops: 5 } } })).not.toEqual([]);
  });

  it("is read from the workspace, and a bad one says what is wrong", async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    expect(await readLimitConfig(runtime)).toEqual({ limits: {} });
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, '{ // mine\n "workbench": { "shell": { "maxCallDepth": 20 } } }');
    expect(await readLimitConfig(runtime)).toEqual({ limits: { maxCallDepth: 20 } });
    await runtime.fs.writeFile(`${runtime.root}/opencode.json`, '{ "workbench": { "shell": { "maxCallDepth": "deep" } } }');
    const bad = await readLimitConfig(runtime);
    expect(bad.limits).toEqual({});
    expect(bad.problem).toContain("workbench.shell.maxCallDepth must be a whole number above 0");
  });
});

describe("ShellLimitsControl", () => {
  it("applies Settings, then opencode.json over them, to the next command", { timeout: 30_000 }, async () => {
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    const rt = runtime;
    const storage = new MemoryStorage() as unknown as Storage;
    control = new ShellLimitsControl(rt, (limits) => rt.setLimits(limits), storage, false);
    await control.start();
    const deep = "down() { if [ $1 -gt 0 ]; then down $(($1 - 1)); else echo bottom; fi; }; down 40";
    expect((await rt.exec(deep)).stdout).toBe("bottom\n");

    saveLimitSettings(storage, { maxCallDepth: 10 });
    await control.refresh();
    expect(control.inForce.sources.maxCallDepth).toBe("settings");
    expect((await rt.exec(deep)).stderr).toContain("maximum recursion depth (10)");

    await rt.fs.writeFile(`${rt.root}/opencode.json`, JSON.stringify({ workbench: { shell: { maxCallDepth: 100 } } }));
    await control.refresh();
    expect(control.inForce.limits.maxCallDepth).toBe(100);
    expect(control.inForce.sources.maxCallDepth).toBe("opencode.json");
    expect((await rt.exec(deep)).stdout).toBe("bottom\n");
  });
});
