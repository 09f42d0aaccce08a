/**
 * The folders the shell may be in as the walk moves through a command line, and how they combine. A
 * statement ends with two sets, one for when it succeeded and one for when it failed, so `&&` and `||` can
 * each follow the right one.
 */
import type { Cwd, Cwds } from "./paths.js";

export interface Flow {
  /** Where the shell may be when the statement succeeded. */
  ok: Cwds;
  /** ... and when it failed. */
  fail: Cwds;
}

const MAX_CWDS = 16;

const key = (cwd: Cwd) => ("path" in cwd ? `p:${cwd.path}` : `u:${cwd.unknown}`);

export function union(...sets: Cwds[]): Cwds {
  const seen = new Map<string, Cwd>();
  for (const set of sets) for (const cwd of set) seen.set(key(cwd), cwd);
  const all = [...seen.values()];
  // A script that keeps changing folder (`cd a && x` line after line) multiplies the possibilities; past the
  // cap the folder is simply not known, so relative paths ask rather than being judged from dozens of places.
  return all.length > MAX_CWDS ? [{ unknown: "too many possible folders to follow" }] : all;
}

export const same = (a: Cwds, b: Cwds) => a.length === b.length && a.every((cwd, i) => key(cwd) === key(b[i]!));

/** A statement that leaves the folder where it was, whether it succeeds or fails. */
export const steady = (cwds: Cwds): Flow => ({ ok: cwds, fail: cwds });
