/**
 * A cgroup (v2) per bash call, where the system lets this process make one. Everything a call starts
 * stays in its cgroup whatever it does to its session, group, parent or environment, and the kernel's
 * `cgroup.kill` ends them all at once, forks in flight included. That is what a sweep of /proc cannot
 * promise (call-sweep.ts): a process caught between fork and exec, or one that cleared its environment
 * and was orphaned, is invisible to it for a moment.
 *
 * The call's shell joins its cgroup itself before it runs anything: `sh` writes its own pid into the
 * cgroup and then execs bash in place, so no child can be born outside it. Where cgroups v2 are not
 * mounted or not writable (not root, no delegation, not Linux) there is no cgroup and the sweep of /proc
 * is all there is.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";

export interface CallGroup {
  /** The call's cgroup directory. */
  dir: string;
}

/** This process's folder of call cgroups; null once probing found none usable. */
let base: string | null | undefined;
let count = 0;
/** Cgroups that still held processes when their call ended (removed once empty, or at exit). */
const leftovers = new Set<string>();

function cgroup2Mount(): string | undefined {
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const [before, after] = line.split(" - ");
    if (after?.startsWith("cgroup2 ")) return before!.split(" ")[4];
  }
  return undefined;
}

/**
 * Folders left by processes that ended without their exit handlers (killed, or a test worker torn
 * down): their calls are ended and the folders removed, so they do not pile up.
 */
function removeAbandoned(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = /^workbench-(\d+)$/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || existsSync(`/proc/${pid}`)) continue;
    const folder = join(parent, name);
    try {
      for (const call of readdirSync(folder)) if (call.startsWith("call-")) endGroupNow({ dir: join(folder, call) });
      rmdirSync(folder);
    } catch {
      // Another process is cleaning it, or a call there has not ended yet: the next probe tries again.
    }
  }
}

function probe(): string | null {
  if (process.platform !== "linux" || process.env.WORKBENCH_NO_CGROUP === "1") return null;
  try {
    const mount = cgroup2Mount();
    const own = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((line) => line.startsWith("0::"))
      ?.slice(3);
    if (!mount || own === undefined) return null;
    removeAbandoned(join(mount, own));
    const dir = join(mount, own, `workbench-${process.pid}`);
    // Threads of one process share the folder (and each names its calls apart).
    mkdirSync(dir, { recursive: true });
    // cgroup.kill came with Linux 5.14; without it ending a cgroup would be a sweep again.
    if (!existsSync(join(dir, "cgroup.kill"))) {
      rmdirSync(dir);
      return null;
    }
    process.once("exit", removeCallGroups);
    return dir;
  } catch {
    return null;
  }
}

/** Where this process's call cgroups live, or null where it can make none. */
export function callGroupsBase(): string | null {
  if (base === undefined) base = probe();
  return base;
}

/** A new, empty cgroup for one call, or undefined where there can be none. */
export function newCallGroup(): CallGroup | undefined {
  const parent = callGroupsBase();
  if (!parent) return undefined;
  const dir = join(parent, `call-${threadId}-${count++}`);
  try {
    mkdirSync(dir);
    return { dir };
  } catch {
    return undefined;
  }
}

/**
 * How to start a command inside `group`: run `command args` through `sh`, which first moves itself
 * into the cgroup and then becomes the command (exec keeps its pid, session and group).
 */
export function spawnInGroup(group: CallGroup | undefined, command: string, args: string[]): { file: string; args: string[] } {
  if (!group) return { file: command, args };
  // A failed write (the cgroup removed under us) leaves the command outside: the /proc sweep still runs.
  return { file: "/bin/sh", args: ["-c", 'echo $$ >"$0" 2>/dev/null; exec "$@"', join(group.dir, "cgroup.procs"), command, ...args] };
}

/** SIGKILL to every process in the cgroup, atomically with respect to forks. */
export function killGroup(group: CallGroup): boolean {
  try {
    writeFileSync(join(group.dir, "cgroup.kill"), "1");
    return true;
  } catch {
    return false;
  }
}

function populated(dir: string): boolean {
  try {
    return /^populated 1$/m.test(readFileSync(join(dir, "cgroup.events"), "utf8"));
  } catch {
    return false;
  }
}

function remove(dir: string): boolean {
  try {
    rmdirSync(dir);
    leftovers.delete(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      leftovers.delete(dir);
      return true;
    }
    leftovers.add(dir);
    return false;
  }
}

/**
 * Kills the cgroup's processes and waits (up to `waitMs`) until the kernel has taken them all out,
 * so a caller that returns after this sees none of them running; then removes the cgroup.
 */
export async function endGroup(group: CallGroup, waitMs = 2000): Promise<void> {
  killGroup(group);
  for (let waited = 0; populated(group.dir) && waited < waitMs; waited += 5) {
    await new Promise((done) => setTimeout(done, 5));
  }
  remove(group.dir);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** The synchronous form, for exit and signal handlers: kills, waits up to `waitMs`, removes. */
export function endGroupNow(group: CallGroup, waitMs = 500): void {
  killGroup(group);
  for (let waited = 0; populated(group.dir) && waited < waitMs; waited += 5) Atomics.wait(pause, 0, 0, 5);
  remove(group.dir);
}

/** At exit: removes what cgroups can be removed, and this process's folder of them. */
export function removeCallGroups(): void {
  for (const dir of [...leftovers]) {
    killGroup({ dir });
    remove(dir);
  }
  if (base && leftovers.size === 0) {
    try {
      rmdirSync(base);
      base = undefined;
    } catch {
      // A call still running (another runtime of this process): its own end removes it.
    }
  }
}
