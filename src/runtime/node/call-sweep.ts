/**
 * Ends everything a bash call started, however it tried to leave. Killing the call's process group
 * misses a child that left it (`set -m` jobs get their own group, `setsid` its own session, and a double
 * fork reparents to init). So each call's shell starts with a marker variable naming the call, inherited
 * by everything it starts, and when the call ends every process is swept (Linux /proc) that carries the
 * marker, is in the call's group or session, or descends from one that does.
 *
 * The sweep alone has gaps: a process between fork and exec, or one that cleared its environment (`env -i`),
 * left the session and was orphaned, carries no readable sign of the call for a moment. So where the
 * system allows it each call also runs in a cgroup of its own (call-cgroup.ts), which the kernel ends
 * whole; the sweep is then a second net, and the only one where there are no cgroups.
 */
import { readdirSync, readFileSync } from "node:fs";
import { endGroup, endGroupNow, killGroup, removeCallGroups, type CallGroup } from "./call-cgroup.js";

/** Set for every command on the node runtime, to a value unique to the call. */
export const CALL_MARKER = "WORKBENCH_CALL_ID";

let callCount = 0;

/** What every marker value of this process starts with (so a watchdog can find them all). */
export function callIdPrefix(): string {
  return `${process.pid}-`;
}

/** A marker value no other call of any process shares. */
export function newCallId(): string {
  return `${callIdPrefix()}${Date.now().toString(36)}-${(callCount++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface LiveCall {
  /** The call's shell: leader of its own session and process group (spawned detached). */
  pid: number;
  /** The marker's value for this call. */
  id: string;
  /** When the shell started (clock ticks since boot): nothing older can carry the marker. */
  since?: number;
  /** The call's cgroup, where it has one. */
  group?: CallGroup;
}

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  starttime: number;
}

/** The fields after `(comm)`, which may itself hold spaces and parentheses. */
function readStat(pid: number): ProcInfo | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // fields: state ppid pgrp session ... (field 22 of proc(5), starttime, is fields[19]); a zombie has ended already.
    if (fields[0] === "Z") return undefined;
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]), starttime: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

function carriesMarker(pid: number, needles: Map<string, LiveCall>): LiveCall | undefined {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  const at = environ.indexOf(`${CALL_MARKER}=`);
  if (at < 0) return undefined;
  let end = environ.indexOf(0, at);
  if (end < 0) end = environ.length;
  return needles.get(environ.subarray(at + CALL_MARKER.length + 1, end).toString("utf8"));
}

function listProcesses(): ProcInfo[] | undefined {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const found: ProcInfo[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = readStat(Number(name));
    if (info) found.push(info);
  }
  return found;
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already, or not ours to kill.
  }
}

/** This process and its ancestors: never swept, whatever they carry. */
function selfAndAncestors(all: Map<number, ProcInfo>): Set<number> {
  const spared = new Set<number>();
  for (let pid: number | undefined = process.pid; pid && !spared.has(pid); pid = all.get(pid)?.ppid) spared.add(pid);
  return spared;
}

/** One pass: the processes that belong to any of `calls` now. */
function belonging(calls: LiveCall[]): number[] | undefined {
  const processes = listProcesses();
  if (!processes) return undefined;
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  const spared = selfAndAncestors(byPid);
  const leaders = new Set(calls.map((call) => call.pid));
  const ids = new Map(calls.map((call) => [call.id, call]));
  // Reading every process's environment is the sweep's cost: only those started since the oldest call.
  const since = Math.min(...calls.map((call) => call.since ?? 0));
  const marked = new Set<number>();
  for (const p of processes) {
    if (spared.has(p.pid)) continue;
    if (leaders.has(p.pid) || leaders.has(p.pgrp) || leaders.has(p.session)) marked.add(p.pid);
    else if (p.starttime >= since && carriesMarker(p.pid, ids)) marked.add(p.pid);
  }
  // Descendants of a marked process belong too (one that cleared its environment but has not yet left).
  for (const p of processes) {
    if (spared.has(p.pid) || marked.has(p.pid)) continue;
    const seen = new Set<number>();
    for (let up = p.ppid; up > 1 && !seen.has(up); up = byPid.get(up)?.ppid ?? 0) {
      seen.add(up);
      if (marked.has(up)) {
        marked.add(p.pid);
        break;
      }
    }
  }
  return [...marked];
}

/**
 * Kills every process of `calls` (SIGKILL), in passes until one finds none, since a process may fork
 * while a pass runs. Returns how many it killed; without /proc it kills the groups only.
 */
function sweepCalls(calls: LiveCall[], maxPasses = 8): number {
  if (calls.length === 0) return 0;
  let killed = 0;
  for (const call of calls) {
    if (call.group) killGroup(call.group);
    try {
      process.kill(-call.pid, "SIGKILL");
    } catch {
      // The group is already gone.
    }
  }
  for (let pass = 0; pass < maxPasses; pass++) {
    const found = belonging(calls);
    if (!found || found.length === 0) break;
    for (const pid of found) kill(pid);
    killed += found.length;
  }
  return killed;
}

const liveCalls = new Set<LiveCall>();

/** Told when the first call starts and when the last one ends (the CLI's signal handlers). */
export interface LiveCallWatcher {
  attach(): void;
  detach(): void;
}
let watcher: LiveCallWatcher | undefined;

/** Calls `attach` while any call runs on a node runtime of this process, `detach` once none does. */
export function watchLiveCalls(next: LiveCallWatcher): void {
  watcher?.detach();
  watcher = next;
  if (liveCalls.size > 0) next.attach();
}

/** Notes a call's shell as running (and when it started, which makes its sweep cheaper). */
export function callStarted(call: LiveCall): void {
  call.since ??= readStat(call.pid)?.starttime;
  liveCalls.add(call);
  if (liveCalls.size === 1) watcher?.attach();
}

/** Ends what `call` started (its cgroup, then a sweep) and forgets it; resolves once they are gone. */
export async function endCall(call: LiveCall): Promise<void> {
  sweepCalls([call]);
  if (liveCalls.delete(call) && liveCalls.size === 0) watcher?.detach();
  if (call.group) await endGroup(call.group);
}

/** Ends every running call's processes; for signal and exit handlers (synchronous). */
export function endAllCalls(): void {
  const calls = [...liveCalls];
  sweepCalls(calls);
  for (const call of calls) if (call.group) endGroupNow(call.group);
  liveCalls.clear();
  removeCallGroups();
  watcher?.detach();
}
