import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { ToolSession, type ToolSessionOptions } from "../../src/session/tool-session.js";
import { builtinTools } from "../../src/tools/builtins.js";

/** A tool session over a fresh in-memory embedded runtime, with files written first. */
export async function sessionWith(
  files: Record<string, string> = {},
  options: Partial<ToolSessionOptions> = {},
): Promise<{ session: ToolSession; runtime: EmbeddedRuntime; dispose(): Promise<void> }> {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  for (const [path, text] of Object.entries(files)) {
    const full = `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, text);
  }
  const session = await ToolSession.open({
    runtime,
    dataDir: "/data",
    home: "/home/user",
    builtins: builtinTools,
    trusted: true,
    ...options,
  });
  return { session, runtime, dispose: () => runtime.dispose() };
}
