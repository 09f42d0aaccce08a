/**
 * A custom-code sandbox served in this thread over a real MessageChannel, for tests in node, where the
 * page's sandbox frame does not exist: the same protocol and serving code, without the isolation (which
 * e2e/custom-sandbox.spec.ts shows in Chromium). Counts how often one was opened and ended, and keeps
 * what the page sent.
 */
import { MessageChannel } from "node:worker_threads";
import type { CodeSandboxConnection } from "../../src/tools/custom/sandbox/client.js";
import { serveCustomCode } from "../../src/tools/custom/sandbox/serve.js";

type Serve = (post: (message: unknown) => void, listen: (handler: (message: unknown) => void) => void) => void;

const honest: Serve = (post, listen) => serveCustomCode({ post, listen });

export function inThreadSandboxes(serve: Serve = honest) {
  const counts = { opened: 0, ended: 0 };
  const sent: unknown[] = [];
  const open = async (): Promise<CodeSandboxConnection> => {
    counts.opened++;
    const { port1, port2 } = new MessageChannel();
    serve(
      (message) => port2.postMessage(message),
      (handler) => port2.on("message", handler),
    );
    return {
      post: (message) => {
        sent.push(message);
        port1.postMessage(message);
      },
      onMessage: (handler) => port1.on("message", handler),
      // A thread of its own could die; this one cannot.
      onCrash: () => {},
      terminate: () => {
        counts.ended++;
        port1.close();
        port2.close();
      },
    };
  };
  return { open, counts, sent };
}
