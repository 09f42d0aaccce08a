/** The real `workbench` bin in a child process, as a person's shell runs it: its exit code and both streams. */
import { spawn } from "node:child_process";
import { join } from "node:path";

export const WORKBENCH_BIN = join(import.meta.dirname, "../../bin/workbench.mjs");

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runWorkbench(
  args: string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string; onStart?: (pid: number) => void } = {},
): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKBENCH_BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdin.end(options.input ?? "");
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (child.pid !== undefined) options.onStart?.(child.pid);
  });
}
