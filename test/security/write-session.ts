/**
 * A tool session attacked by a careless or hostile model: every external_directory question is answered
 * "reject" (and counted), so whatever reaches outside without asking shows up on the sentinel.
 */
import type { Runtime } from "../../src/runtime/types.js";
import type { ToolSession } from "../../src/session/host/tool-session.js";
import type { PermissionRequest } from "../../src/tools/permission/types.js";
import { sessionOn, type fileBackends } from "../support/tool-session.js";
import { plantSentinel, type Sentinel } from "./sentinel.js";

export interface Attacked {
  session: ToolSession;
  runtime: Runtime;
  root: string;
  sentinel: Sentinel;
  /** external_directory questions asked so far (all rejected). */
  asked: PermissionRequest[];
  text(path: string): Promise<string>;
  bytes(path: string): Promise<Uint8Array>;
  dispose(): Promise<void>;
}

export async function attackedSession(
  backend: (typeof fileBackends)[number],
  files: Record<string, string | Uint8Array> = {},
): Promise<Attacked> {
  const opened = await sessionOn(backend, files);
  const sentinel = await plantSentinel(opened.runtime);
  const asked: PermissionRequest[] = [];
  opened.session.bus.subscribe("permission.asked", (request) => {
    if (request.permission === "external_directory") asked.push(request);
    queueMicrotask(() => opened.session.permissions.reply(request.id, request.permission === "external_directory" ? "reject" : "once"));
  });
  const at = (path: string) => (path.startsWith("/") ? path : `${opened.root}/${path}`);
  return {
    session: opened.session,
    runtime: opened.runtime,
    root: opened.root,
    sentinel,
    asked,
    text: opened.text,
    bytes: (path) => opened.runtime.fs.readFile(at(path)),
    dispose: async () => {
      await opened.dispose();
      await sentinel.dispose();
    },
  };
}
