/**
 * A session of the embedded runtime with Code Mode on, for the execute tool's tests: `program(code)` runs
 * one execute call by hand and returns it with its inner calls, in the order they were made.
 */
import { createEmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import type { Runtime } from "../../../src/runtime/types.js";
import type { ToolCall } from "../../../src/session/record/session-record.js";
import { ToolSession, type ToolSessionOptions } from "../../../src/session/host/tool-session.js";
import { builtinTools } from "../../../src/tools/builtins.js";
import { defineExecuteTool } from "../../../src/tools/execute.js";
import { DEFAULT_LIMITS, type ExecuteLimits } from "../../../src/tools/execute/limits.js";
import type { StartProgramThread } from "../../../src/tools/execute/program-thread.js";
import { startProgramThread } from "../../../src/tools/execute/start-program-thread.js";

export interface Opened {
  session: ToolSession;
  runtime: Runtime;
  root: string;
  read(path: string): Promise<string>;
  program(code: string, signal?: AbortSignal): Promise<{ call: ToolCall; inner: ToolCall[] }>;
  dispose(): Promise<void>;
}

export async function openCodeMode(
  files: Record<string, string> = {},
  options: {
    limits?: Partial<ExecuteLimits>;
    config?: Record<string, unknown>;
    session?: Partial<ToolSessionOptions>;
    /** How the program's worker starts (a test watches or breaks it); the host's own by default. */
    start?: StartProgramThread;
  } = {},
): Promise<Opened> {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  const config = { workbench: { experimentalCodeMode: true }, ...options.config };
  const all = { "opencode.json": JSON.stringify(config), ...files };
  for (const [path, text] of Object.entries(all)) {
    const full = `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
  const execute = defineExecuteTool({ ...DEFAULT_LIMITS, ...options.limits }, options.start ?? startProgramThread);
  const session = await ToolSession.open({
    runtime,
    dataDir: "/data",
    home: "/home/user",
    builtins: builtinTools.map((tool) => (tool.id === "execute" ? execute : tool)),
    trusted: true,
    ...options.session,
  });
  return {
    session,
    runtime,
    root: runtime.root,
    read: async (path) => new TextDecoder().decode(await runtime.fs.readFile(`${runtime.root}/${path}`)),
    async program(code, signal) {
      const before = new Set(session.session.calls.map((call) => call.id));
      const call = await session.run("execute", { code }, signal ? { signal } : {});
      const inner = session.session.calls.filter((c) => !before.has(c.id) && c.id !== call.id);
      return { call, inner };
    },
    dispose: () => runtime.dispose(),
  };
}
