/**
 * The custom-code sandbox's script, bundled into one file that the page's sandbox frame evaluates in a
 * fresh worker (src/runtime/embedded/sandbox/frame-host.ts). The name below is the sandbox contract's
 * `SANDBOX_MAIN` (src/runtime/embedded/sandbox/contract.ts), written out because the tools layer may not
 * import a runtime backend; e2e/custom-sandbox.spec.ts fails if the two ever differ.
 */
import { serveCustomCode } from "./serve.js";

(globalThis as Record<string, unknown>).__workbenchSandboxMain = (channel: {
  post(message: unknown): void;
  listen(handler: (message: unknown) => void): void;
}) => serveCustomCode(channel);
