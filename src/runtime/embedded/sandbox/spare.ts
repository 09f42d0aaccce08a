/**
 * Keeps one sandbox of each runtime started ahead, once that runtime has been asked for: starting one
 * (a thread, the runtime's script evaluated) is most of a short program's time, so the next program takes
 * a ready one and another starts meanwhile. Each sandbox still serves one program only.
 */
import type { Sandbox, SandboxFactory, SandboxRuntime } from "./contract.js";

interface Spare extends Sandbox {
  /** Why the sandbox died while it waited, if it did. */
  crashed(): string | undefined;
}

/**
 * Listens for a crash from the start, so one that comes before the program's own listener (the frame
 * ended while the spare waited) is neither lost nor handed to a program that never ran.
 */
function listenedFrom(sandbox: Sandbox): Spare {
  let crash: string | undefined;
  let handler: ((message: string) => void) | undefined;
  sandbox.onCrash((message) => {
    crash = message;
    handler?.(message);
  });
  return {
    endpoint: sandbox.endpoint,
    terminate: () => sandbox.terminate(),
    crashed: () => crash,
    onCrash(next) {
      handler = next;
      if (crash !== undefined) next(crash);
    },
  };
}

export function withSpare(factory: SandboxFactory): SandboxFactory {
  const spares = new Map<SandboxRuntime, Promise<Spare>>();
  const start = (runtime: SandboxRuntime) => factory(runtime).then(listenedFrom);
  const prepare = (runtime: SandboxRuntime) => {
    const next = start(runtime);
    // A spare that failed to start is forgotten; the next program starts its own.
    next.catch(() => {
      if (spares.get(runtime) === next) spares.delete(runtime);
    });
    spares.set(runtime, next);
  };
  return async (runtime) => {
    const ready = spares.get(runtime);
    spares.delete(runtime);
    let sandbox: Spare | undefined;
    try {
      sandbox = ready ? await ready : undefined;
    } catch {
      sandbox = undefined;
    }
    // A spare that died while it waited is thrown away, not given a program to fail.
    if (sandbox?.crashed() !== undefined) {
      sandbox.terminate();
      sandbox = undefined;
    }
    sandbox ??= await start(runtime);
    prepare(runtime);
    return sandbox;
  };
}
