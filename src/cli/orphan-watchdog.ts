/**
 * A SIGKILL ends the CLI with no chance to end its commands. A small shell, started in its own session,
 * holds a pipe from the CLI: when the CLI is gone, however it went, the pipe reaches its end and the shell
 * kills every process carrying one of this CLI's call markers (call-sweep.ts). Linux /proc only.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { callGroupsBase } from "../runtime/node/call-cgroup.js";
import { CALL_MARKER, callIdPrefix } from "../runtime/node/call-sweep.js";

// Waits for the end of its input, ends the CLI's call cgroups (when it has any: $2), then sweeps in
// passes until one finds nothing (a process may fork while a pass runs). `grep -z` reads
// /proc/<pid>/environ's NUL-separated entries one by one.
const SCRIPT = `
cat >/dev/null
if [ -n "$2" ]; then
  for kill in "$2"/call-*/cgroup.kill; do [ -f "$kill" ] && echo 1 >"$kill" 2>/dev/null; done
fi
pass=0
while [ $pass -lt 8 ]; do
  pass=$((pass + 1)); found=
  for environ in /proc/[0-9]*/environ; do
    if grep -qsz "^$1" "$environ"; then
      pid=\${environ#/proc/}; pid=\${pid%/environ}
      [ "$pid" = "$$" ] || { kill -KILL "$pid" 2>/dev/null && found=1; }
    fi
  done
  [ -n "$found" ] || break
done
if [ -n "$2" ]; then
  sleep 0.2
  for group in "$2"/call-*; do [ -d "$group" ] && rmdir "$group" 2>/dev/null; done
  rmdir "$2" 2>/dev/null
fi
`;

let started = false;

/** Starts the watchdog once (on the first call); it outlives this process only to sweep after it. */
export function startOrphanWatchdog(): void {
  if (started || !existsSync("/proc/self/environ")) return;
  started = true;
  try {
    const watchdog = spawn("sh", ["-c", SCRIPT, "watchdog", `${CALL_MARKER}=${callIdPrefix()}`, callGroupsBase() ?? ""], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    watchdog.on("error", () => {});
    // Neither the process nor its pipe keeps the CLI running.
    watchdog.unref();
    (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  } catch {
    // No sh: the signal handlers still cover every ending but SIGKILL.
  }
}
