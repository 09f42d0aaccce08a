import { afterEach } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { ToolSession, type ToolSessionOptions } from "../../src/session/host/tool-session.js";
import { builtinTools } from "../../src/tools/builtins.js";

/** A tool session over a fresh in-memory embedded runtime, with files written first. */
/** Ids of the built-in tools, to tell custom tools apart in listings. */
export const builtinIds = new Set(builtinTools.map((tool) => tool.id));
export const customIds = (ids: string[]) => ids.filter((id) => !builtinIds.has(id));

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

/** The same, on each backend a file tool must work on: embedded (in memory) and node (a temp folder). */
export const fileBackends = ["embedded", "node"] as const;

export async function sessionOn(
  backend: (typeof fileBackends)[number],
  files: Record<string, string | Uint8Array> = {},
  options: Partial<ToolSessionOptions> = {},
) {
  const { mkdtemp, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { createNodeRuntime } = await import("../../src/runtime/node/index.js");
  let runtime: import("../../src/runtime/types.js").Runtime;
  let cleanup: () => Promise<void>;
  if (backend === "embedded") {
    const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    runtime = embedded;
    cleanup = () => embedded.dispose();
  } else {
    const base = await mkdtemp(join(tmpdir(), "wb-tools-"));
    const { mkdir, realpath } = await import("node:fs/promises");
    await mkdir(join(base, "workspace"));
    const root = await realpath(join(base, "workspace"));
    runtime = createNodeRuntime({ root });
    cleanup = () => rm(base, { recursive: true, force: true });
  }
  for (const [path, content] of Object.entries(files)) {
    const full = `${runtime.root}/${path}`;
    await runtime.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await runtime.fs.writeFile(full, content);
  }
  const dataDir = backend === "embedded" ? "/data" : runtime.root.replace(/\/workspace$/, "/data");
  const session = await ToolSession.open({ runtime, dataDir, home: "/home/user", builtins: builtinTools, trusted: true, ...options });
  const text = async (path: string) =>
    new TextDecoder().decode(await runtime.fs.readFile(path.startsWith("/") ? path : `${runtime.root}/${path}`));
  return { session, runtime, root: runtime.root, text, dispose: cleanup };
}

/** `sessionWith` for a test file whose every session ends after each test (call at the file's top level). */
export function sessionsEndedAfterEach(): (files?: Record<string, string>) => ReturnType<typeof sessionWith> {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });
  return async (files = {}) => {
    const made = await sessionWith(files);
    disposers.push(made.dispose);
    return made;
  };
}
