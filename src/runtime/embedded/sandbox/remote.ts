/** The shell worker's side of sandbox requests (requests.ts): a SandboxFactory served by the page. */
import { endpointOf, type Endpoint } from "../endpoint.js";
import type { Sandbox, SandboxFactory } from "./contract.js";
import { isSandboxAnswer, type SandboxRequest } from "./requests.js";

export function requestSandboxes(control: Endpoint): SandboxFactory {
  let nextId = 1;
  const crashHandlers = new Map<number, (message: string) => void>();
  // A sandbox can die before anyone listens (a spare started ahead, in a frame the browser ended).
  const crashedEarly = new Map<number, string>();
  const waiting = new Map<number, { resolve(sandbox: Sandbox): void; reject(error: Error): void }>();
  control.listen((data) => {
    if (!isSandboxAnswer(data)) return;
    if (data.kind === "sandbox-crashed") {
      const handler = crashHandlers.get(data.id);
      if (handler) handler(data.message);
      else crashedEarly.set(data.id, data.message);
      return;
    }
    const waiter = waiting.get(data.id);
    if (!waiter) return;
    waiting.delete(data.id);
    if (data.kind === "sandbox-failed") {
      waiter.reject(new Error(`the sandbox could not start: ${data.message}`));
      return;
    }
    const id = data.id;
    const port = data.port;
    waiter.resolve({
      endpoint: endpointOf(port),
      onCrash: (handler) => {
        crashHandlers.set(id, handler);
        const early = crashedEarly.get(id);
        crashedEarly.delete(id);
        if (early !== undefined) handler(early);
      },
      terminate: () => {
        crashHandlers.delete(id);
        crashedEarly.delete(id);
        port.close();
        control.post({ kind: "sandbox-close", id } satisfies SandboxRequest);
      },
    });
  });
  return (runtime) =>
    new Promise<Sandbox>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      control.post({ kind: "sandbox-open", id, runtime } satisfies SandboxRequest);
    });
}
