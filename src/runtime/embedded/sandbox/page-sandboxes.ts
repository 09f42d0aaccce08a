/**
 * The page's side of a shell worker's sandbox requests (requests.ts): each sandbox is a worker in the
 * page's sandbox frame (frame-host.ts), joined to the shell worker by a port of its own.
 */
import { frameHost, type FrameSandbox } from "./frame-host.js";
import { isSandboxRequest, type SandboxAnswer, type SandboxRequest } from "./requests.js";
import { errorMessage } from "../../../base/error-message.js";

export interface SandboxServer {
  handle(request: unknown): void;
  /** Ends every sandbox of this shell worker (it is going). */
  close(): void;
}

export function createSandboxServer(worker: Worker): SandboxServer {
  const open = new Map<number, FrameSandbox>();
  let closed = false;
  const answer = (message: SandboxAnswer, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  async function start(request: Extract<SandboxRequest, { kind: "sandbox-open" }>): Promise<void> {
    try {
      const host = await frameHost();
      const channel = new MessageChannel();
      const sandbox = await host.spawn(request.runtime, channel.port2, (message) =>
        answer({ kind: "sandbox-crashed", id: request.id, message }),
      );
      if (closed) return sandbox.terminate();
      open.set(request.id, sandbox);
      answer({ kind: "sandbox-opened", id: request.id, port: channel.port1 }, [channel.port1]);
    } catch (error) {
      answer({ kind: "sandbox-failed", id: request.id, message: errorMessage(error) });
    }
  }
  return {
    handle(request) {
      if (!isSandboxRequest(request) || closed) return;
      if (request.kind === "sandbox-open") void start(request);
      else {
        open.get(request.id)?.terminate();
        open.delete(request.id);
      }
    },
    close() {
      closed = true;
      for (const sandbox of open.values()) sandbox.terminate();
      open.clear();
    },
  };
}
