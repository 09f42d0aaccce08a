/**
 * Issue 15, item 8: nothing a bash call starts outlives it. Attacks: a background job, `nohup`, `disown`,
 * a double fork, `setsid` (a new session and group), job control (`set -m`: a new group), `setsid` plus a
 * double fork; each ended normally, by abort and by timeout. On the node runtime, after the call, no
 * process may remain that carries the call's marker (read from /proc/<pid>/environ) or runs the call's
 * uniquely-long sleep (read from /proc/<pid>/cmdline, which does not rely on the marker). A delayed write
 * from an escaped job must never land beside the sentinel. On the embedded runtime the shell runs in a
 * worker: a background job ends with the call (or the worker, on abort) and a later call sees no job.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callGroupsBase } from "../../src/runtime/node/call-cgroup.js";
import { CALL_MARKER } from "../../src/runtime/node/call-sweep.js";
import { sessionOn } from "../support/tool-session.js";
import { plantSentinel, type Sentinel } from "./sentinel.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Processes (not zombies) whose environment or command line contains `needle`. */
function processesWith(where: "environ" | "cmdline", needle: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      if (readFileSync(`/proc/${name}/${where}`).includes(needle)) found.push(Number(name));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

/** A sleep no other process runs: its argument is unique to the test. */
function uniqueSleep(): string {
  return `1000.${Math.floor(Math.random() * 1e9)}`;
}

/** The sleep processes themselves (arguments NUL-separated), not a shell or CLI that names them in its script. */
const sleeping = (arg: string) => processesWith("cmdline", `sleep\0${arg}\0`);

const escapes: Record<string, (sleep: string) => string> = {
  "a background job": (s) => `sleep ${s} >/dev/null 2>&1 &`,
  "a background job holding the output open": (s) => `sleep ${s} &`,
  nohup: (s) => `nohup sleep ${s} >/dev/null 2>&1 &`,
  disown: (s) => `sleep ${s} >/dev/null 2>&1 & disown`,
  "a double fork": (s) => `( ( sleep ${s} >/dev/null 2>&1 & ) )`,
  setsid: (s) => `setsid sleep ${s} >/dev/null 2>&1 &`,
  "job control (its own group)": (s) => `set -m; sleep ${s} >/dev/null 2>&1 &`,
  "setsid and a double fork": (s) => `setsid bash -c '( sleep ${s} >/dev/null 2>&1 & )' >/dev/null 2>&1 &`,
  "a marker unset before a double fork": (s) => `unset ${CALL_MARKER}; ( ( sleep ${s} >/dev/null 2>&1 & ) ); sleep 0.2`,
};

async function nodeSession() {
  const s = await sessionOn("node");
  cleanups.push(s.dispose);
  s.session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => s.session.permissions.reply(r.id, "once")));
  const sentinel = await plantSentinel(s.runtime);
  cleanups.push(() => sentinel.dispose());
  return { ...s, sentinel };
}

/** After the call: nothing carrying its marker or running its sleep, and the sentinel as planted. */
async function assertNothingLeft(marker: string, sleep: string, sentinel: Sentinel) {
  expect(marker, "the command saw its call's marker").toMatch(/\S/);
  expect(processesWith("environ", `${CALL_MARKER}=${marker}\0`), "processes still carrying the call's marker").toEqual([]);
  expect(sleeping(sleep), "the call's sleep still running").toEqual([]);
  await sentinel.assertUntouched();
}

describe("processes: node runtime", () => {
  for (const [name, attack] of Object.entries(escapes)) {
    it(`${name} ends with the call`, async () => {
      const { session, sentinel } = await nodeSession();
      const sleep = uniqueSleep();
      const call = await session.run("bash", { command: `echo "marker=$${CALL_MARKER}"; ${attack(sleep)}`, description: "escape" });
      expect(call.status, call.error).toBe("completed");
      const marker = /marker=(\S*)/.exec(call.output ?? "")?.[1] ?? "";
      await assertNothingLeft(marker, sleep, sentinel);
    });
  }

  for (const stop of ["abort", "timeout"] as const) {
    it(`setsid and a double fork end on ${stop}`, async () => {
      const { session, sentinel } = await nodeSession();
      const sleep = uniqueSleep();
      const controller = new AbortController();
      let marker = "";
      const unsubscribe = session.bus.subscribe("call.updated", () => {
        const running = session.session.calls.at(-1);
        const seen = /marker=(\S+)/.exec(String(running?.metadata.output ?? ""))?.[1];
        if (seen && !marker) {
          marker = seen;
          if (stop === "abort") controller.abort();
        }
      });
      cleanups.push(unsubscribe);
      const command = `echo "marker=$${CALL_MARKER}"; setsid bash -c '( sleep ${sleep} >/dev/null 2>&1 & )'; sleep ${uniqueSleep()}`;
      const call = await session.run(
        "bash",
        { command, description: "escape", ...(stop === "timeout" ? { timeout: 1500 } : {}) },
        { signal: controller.signal },
      );
      expect(call.output ?? call.error ?? "").toMatch(stop === "abort" ? /abort/i : /timeout|timed out/i);
      marker ||= /marker=(\S+)/.exec(call.output ?? "")?.[1] ?? "";
      await assertNothingLeft(marker, sleep, sentinel);
    });
  }

  it("each call runs in a cgroup of its own, removed when the call ends (this machine allows cgroups v2)", async () => {
    const { runtime } = await nodeSession();
    const base = callGroupsBase();
    expect(base, "a writable cgroup v2 hierarchy (root, or a delegated subtree); CI runs as root").toBeTruthy();
    const result = await runtime.exec("cat /proc/self/cgroup", { timeoutMs: 20_000 });
    const own = /^0::(.*)$/m.exec(result.stdout)?.[1] ?? "";
    expect(own).toMatch(new RegExp(`/workbench-${process.pid}/call-\\d+-\\d+$`));
    const dir = join(base!, own.slice(own.lastIndexOf("/") + 1));
    expect(existsSync(dir), "the call's cgroup after the call").toBe(false);
  });

  it("setsid with a double fork never survives, tried 25 times (the race a /proc sweep lost)", async () => {
    const { session, sentinel } = await nodeSession();
    for (let attempt = 0; attempt < 25; attempt++) {
      const sleep = uniqueSleep();
      const command = `setsid bash -c '( sleep ${sleep} >/dev/null 2>&1 & )' >/dev/null 2>&1 & setsid bash -c 'env -i /bin/sh -c "( sleep ${sleep} >/dev/null 2>&1 & )"' >/dev/null 2>&1 &`;
      const call = await session.run("bash", { command, description: "escape" });
      expect(call.status, call.error).toBe("completed");
      expect(sleeping(sleep), `attempt ${attempt + 1}: the escaped sleep`).toEqual([]);
    }
    await sentinel.assertUntouched();
  });

  it("an escaped job that would write beside the sentinel later never does", async () => {
    const { runtime, sentinel } = await nodeSession();
    const late = `${sentinel.dir}/late.txt`;
    const result = await runtime.exec(`setsid bash -c '( sleep 1; echo escaped > "${late}" ) &' >/dev/null 2>&1 &`, { timeoutMs: 20_000 });
    expect(result.exitCode).toBe(0);
    // Longer than the job's delay: had it survived, the file would be there now.
    await new Promise((done) => setTimeout(done, 1600));
    await sentinel.assertUntouched();
  });
});

const BIN = join(import.meta.dirname, "../../bin/workbench.mjs");

/** Waits (up to 30 s) until `sleep <needle>` runs; false if it did not. */
async function started(needle: string): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    if (sleeping(needle).length > 0) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}

describe("processes: the CLI on the node runtime", () => {
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(`${signal} to \`workbench tool bash\` ends its command, escaped children included`, async () => {
      const { root, sentinel } = await nodeSession();
      const escaped = uniqueSleep();
      const running = uniqueSleep();
      const command = `setsid bash -c '( sleep ${escaped} >/dev/null 2>&1 & )'; sleep ${running}`;
      const cli = spawn(
        process.execPath,
        [BIN, "tool", "bash", "--dir", root, "--yes", "--args", JSON.stringify({ command, description: "escape" })],
        { stdio: "ignore" },
      );
      const exited = new Promise<{ code: number | null; signal: string | null }>((done) =>
        cli.once("exit", (code, sig) => done({ code, signal: sig })),
      );
      cleanups.push(() => void cli.kill("SIGKILL"));
      expect(await started(running), "the command started").toBe(true);
      expect(await started(escaped), "the escaped child started").toBe(true);
      cli.kill(signal);
      const { code, signal: by } = await exited;
      expect(code, `exit status 128 + the signal's number (ended by ${by})`).toBe(128 + { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[signal]);
      expect(sleeping(running), "the command").toEqual([]);
      expect(sleeping(escaped), "the escaped child").toEqual([]);
      await sentinel.assertUntouched();
    });
  }
});

describe("processes: the CLI killed outright", () => {
  it("SIGKILL to `workbench tool bash` still ends its command and escaped children (the watchdog)", async () => {
    const { root, sentinel } = await nodeSession();
    const escaped = uniqueSleep();
    const running = uniqueSleep();
    const command = `nohup setsid bash -c '( sleep ${escaped} >/dev/null 2>&1 & )' >/dev/null 2>&1; sleep ${running}`;
    const cli = spawn(
      process.execPath,
      [BIN, "tool", "bash", "--dir", root, "--yes", "--args", JSON.stringify({ command, description: "escape" })],
      { stdio: "ignore" },
    );
    const exited = new Promise<void>((done) => cli.once("exit", () => done()));
    expect(await started(running), "the command started").toBe(true);
    expect(await started(escaped), "the escaped child started").toBe(true);
    cli.kill("SIGKILL");
    await exited;
    // The watchdog sweeps once it sees the CLI gone: wait for it, within a bound.
    for (let i = 0; i < 100 && sleeping(running).length + sleeping(escaped).length > 0; i++)
      await new Promise((done) => setTimeout(done, 100));
    expect(sleeping(running), "the command").toEqual([]);
    expect(sleeping(escaped), "the escaped child").toEqual([]);
    await sentinel.assertUntouched();
  });
});

describe("processes: embedded runtime", () => {
  async function embeddedSession() {
    const s = await sessionOn("embedded");
    cleanups.push(s.dispose);
    s.session.bus.subscribe("permission.asked", (r) => queueMicrotask(() => s.session.permissions.reply(r.id, "once")));
    const sentinel = await plantSentinel(s.runtime);
    return { ...s, sentinel };
  }
  const exists = (runtime: { fs: { lstat(path: string): Promise<unknown> } }, path: string) =>
    runtime.fs.lstat(path).then(
      () => true,
      () => false,
    );

  it("a background job is over when its call returns", async () => {
    const { session, text, sentinel } = await embeddedSession();
    const started = await session.run("bash", {
      command: "(sleep 0.5; echo one >> log; sleep 0.5; echo two >> log) & echo started",
      description: "escape",
    });
    expect(started.status, started.error).toBe("completed");
    // The embedded shell waits for its jobs: both writes are in before the call returns, none after.
    expect(await text("log")).toBe("one\ntwo\n");
    const later = await session.run("bash", { command: "sleep 1; echo done", description: "look" });
    expect(later.output).toContain("done");
    expect(await text("log")).toBe("one\ntwo\n");
    await sentinel.assertUntouched();
  });

  it("an aborted call's background job ends with the worker", async () => {
    const { session, runtime, root, sentinel } = await embeddedSession();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const aborted = await session.run(
      "bash",
      { command: "(sleep 1; echo late > late.txt) & sleep 100", description: "escape" },
      { signal: controller.signal },
    );
    expect(aborted.output ?? aborted.error ?? "").toMatch(/abort/i);
    // Longer than the job's delay: had it survived the abort, the file would be there now.
    const later = await session.run("bash", { command: "sleep 1.5; echo done", description: "look" });
    expect(later.output).toContain("done");
    expect(await exists(runtime, `${root}/late.txt`)).toBe(false);
    await sentinel.assertUntouched();
  });
});
