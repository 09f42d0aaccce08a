import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { PageTools } from "../../src/page/page-tools.js";

/**
 * The page's tool session over a fresh embedded runtime holding `files` (paths relative to its root).
 * Call `disposePages` after each test: it ends every runtime opened here.
 */
const opened: EmbeddedRuntime[] = [];

export async function pageWith(files: Record<string, string>, options: { trusted?: boolean } = {}): Promise<PageTools> {
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  opened.push(runtime);
  for (const [path, text] of Object.entries(files)) await runtime.fs.writeFile(`${runtime.root}/${path}`, text);
  return PageTools.open(runtime, options);
}

export async function disposePages(): Promise<void> {
  while (opened.length > 0) await opened.pop()!.dispose();
}
