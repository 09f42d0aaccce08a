/**
 * A trusted workspace's custom tools and plugins, as the page runs them: in the sandbox frame's workers,
 * never in the workbench's own origin, where the remembered keys live (docs/threat-model.md).
 */
import entryUrl from "../tools/custom/sandbox/entry.ts?worker&url";
import { SandboxedWorkspaceCode, type OpenCodeSandbox } from "../tools/custom/sandbox/client.js";
import { openScriptSandbox } from "../workspace/code-sandbox.js";

/** One per page session: `dispose` ends its sandbox when the session is replaced or closed. */
export function sandboxedWorkspaceCode(open: OpenCodeSandbox = () => openScriptSandbox(entryUrl)): SandboxedWorkspaceCode {
  return new SandboxedWorkspaceCode({ open });
}
