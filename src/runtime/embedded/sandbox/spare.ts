/**
 * Keeps one sandbox of each runtime started ahead, once that runtime has been asked for: starting one
 * (a thread, the runtime's script evaluated) is most of a short program's time, so the next program takes
 * a ready one and another starts meanwhile. Each sandbox still serves one program only.
 */
import type { Sandbox, SandboxFactory, SandboxRuntime } from "./contract.js";

export function withSpare(factory: SandboxFactory): SandboxFactory {
  const spares = new Map<SandboxRuntime, Promise<Sandbox>>();
  const prepare = (runtime: SandboxRuntime) => {
    const next = factory(runtime);
    // A spare that failed to start is forgotten; the next program starts its own.
    next.catch(() => {
      if (spares.get(runtime) === next) spares.delete(runtime);
    });
    spares.set(runtime, next);
  };
  return async (runtime) => {
    const ready = spares.get(runtime);
    spares.delete(runtime);
    let sandbox: Sandbox;
    try {
      sandbox = ready ? await ready : await factory(runtime);
    } catch {
      sandbox = await factory(runtime);
    }
    prepare(runtime);
    return sandbox;
  };
}
