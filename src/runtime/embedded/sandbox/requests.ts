/**
 * How a shell worker in the page asks the page for a sandbox (a worker cannot make the frame one lives
 * in): over its control channel, the page answers with a port straight to the new sandbox.
 */
import type { SandboxRuntime } from "./contract.js";

export type SandboxRequest = { kind: "sandbox-open"; id: number; runtime: SandboxRuntime } | { kind: "sandbox-close"; id: number };

export type SandboxAnswer =
  | { kind: "sandbox-opened"; id: number; port: MessagePort }
  | { kind: "sandbox-failed"; id: number; message: string }
  | { kind: "sandbox-crashed"; id: number; message: string };

export function isSandboxRequest(message: unknown): message is SandboxRequest {
  const kind = (message as { kind?: unknown } | null)?.kind;
  return kind === "sandbox-open" || kind === "sandbox-close";
}

export function isSandboxAnswer(message: unknown): message is SandboxAnswer {
  const kind = (message as { kind?: unknown } | null)?.kind;
  return kind === "sandbox-opened" || kind === "sandbox-failed" || kind === "sandbox-crashed";
}
