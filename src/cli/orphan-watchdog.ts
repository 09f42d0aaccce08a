/**
 * A SIGKILL ends the CLI with no chance to end its commands. A small shell, started in its own session,
 * holds a pipe from the CLI: when the CLI is gone, however it went, the pipe reaches its end and the shell
 * kills every process carrying one of this CLI's call markers (call-sweep.ts). Linux /proc only.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { CALL_MARKER, callIdPrefix } from "../runtime/node/call-sweep.js";

// Waits for the end of its input, then sweeps in passes until one finds nothing (a process may fork
// while a pass runs). `grep -z` reads /proc/<pid>/environ's NUL-separated entries one by one.
const SCRIPT = `
cat >/dev/null
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
`;

let started = false;

/** Starts the watchdog once (on the first call); it outlives this process only to sweep after it. */
export function startOrphanWatchdog(): void {
  if (started || !existsSync("/proc/self/environ")) return;
  started = true;
  try {
    const watchdog = spawn("sh", ["-c", SCRIPT, "watchdog", `${CALL_MARKER}=${callIdPrefix()}`], {
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
