import { readFileSync } from "node:fs";

/** Running, as opposed to gone or a zombie waiting to be reaped (which has ended all the same). */
export function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] !== "Z";
  } catch {
    return false;
  }
}

/** Waits up to two seconds for `pid` to end; true once it has. */
export async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}
