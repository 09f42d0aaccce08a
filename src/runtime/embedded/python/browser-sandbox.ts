import type { PythonSandboxFactory } from "./sandbox.js";

/**
 * python3's sandbox in the page: an opaque-origin frame (frame-sandbox.ts). Its code, with the driver and
 * the host script inside, is loaded on the first python3 command, never with the page.
 */
export const browserPythonSandboxFactory: PythonSandboxFactory = async () => {
  const { startFrameSandbox } = await import("./frame-sandbox.js");
  return startFrameSandbox();
};
