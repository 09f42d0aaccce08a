/**
 * The embedded shell's execution limits: just-bash's own defaults (100,000 loop iterations, 100,000
 * commands, 100 calls deep) stop ordinary work such as `seq 1 200000 | wc -l`, so the workbench sets its
 * own. They are generous on purpose: a runaway command is the timeout's and Stop's to end (both terminate
 * the worker), and the limits only catch a loop that would otherwise spin until then.
 *
 * Measured with just-bash 3.4 in Node 20 (bench/results): `seq 1 1000000 | wc -l`
 * peaks near 290 MB of heap, `| sort -n` near 520 MB; a 5,000-deep recursive function near 180 MB; a
 * 3,000,000-iteration arithmetic loop stays under 40 MB.
 */
import type { ShellLimits } from "./shell-protocol.js";

export type ShellLimitName = keyof ShellLimits;

export const SHELL_LIMIT_NAMES: readonly ShellLimitName[] = ["maxLoopIterations", "maxCommandCount", "maxCallDepth"];

export const DEFAULT_SHELL_LIMITS: Readonly<Record<ShellLimitName, number>> = {
  maxLoopIterations: 10_000_000,
  maxCommandCount: 100_000_000,
  maxCallDepth: 10_000,
};

/** How the Settings dialog labels each limit; the limit messages name the same label. */
export const SHELL_LIMIT_LABELS: Readonly<Record<ShellLimitName, string>> = {
  maxLoopIterations: "Loop iterations",
  maxCommandCount: "Commands per run",
  maxCallDepth: "Function call depth",
};

/** The limits just-bash is given: ours where unset, and no limit at all for `null`. */
export function executionLimits(limits: ShellLimits): Record<ShellLimitName, number> {
  const resolved = {} as Record<ShellLimitName, number>;
  for (const name of SHELL_LIMIT_NAMES) {
    const value = limits[name];
    resolved[name] = value === null ? Number.POSITIVE_INFINITY : (value ?? DEFAULT_SHELL_LIMITS[name]);
  }
  return resolved;
}

const JUST_BASH_ADVICE = /,? increase executionLimits\.(maxLoopIterations|maxCommandCount|maxCallDepth)\b/g;

const SEQ_LIMIT = /\bseq: iteration limit exceeded \((\d+)\)/g;

/**
 * just-bash ends its limit errors with "increase executionLimits.<name>", an option nothing in the page can
 * set: say instead where a person changes it. `seq` stops at the loop limit or at just-bash's fixed
 * 1,000,000 values (it holds its output in memory), whichever is lower; `loopLimit` tells which.
 */
export function adviseLimits(stderr: string, loopLimit: number = DEFAULT_SHELL_LIMITS.maxLoopIterations): string {
  if (stderr.includes("seq: iteration limit")) {
    stderr = stderr.replace(SEQ_LIMIT, (all, count: string) =>
      Number(count) === loopLimit
        ? `${all}. Raise it in Settings > Shell limits (${SHELL_LIMIT_LABELS.maxLoopIterations}), or set "workbench": { "shell": { "maxLoopIterations": ... } } in opencode.json`
        : `${all}: seq writes at most ${Number(count).toLocaleString("en-US")} numbers here (it holds them in memory); split the range, e.g. seq 1 1000000; seq 1000001 2000000`,
    );
  }
  if (!stderr.includes("executionLimits.")) return stderr;
  return stderr.replace(
    JUST_BASH_ADVICE,
    (_all, name: ShellLimitName) =>
      `. Raise it in Settings > Shell limits (${SHELL_LIMIT_LABELS[name]}), or set "workbench": { "shell": { "${name}": ... } } in opencode.json`,
  );
}
