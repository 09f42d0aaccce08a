import { execFile } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inProcessBackend } from "../../src/lsp/in-process.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import type { Runtime } from "../../src/runtime/types.js";
import { ToolSession, type ToolSessionOptions } from "../../src/session/host/tool-session.js";
import { builtinTools } from "../../src/tools/builtins.js";
import { WorkspaceLanguageService } from "../../src/workspace/language-service.js";

const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** A node runtime on a temp folder holding `files`, its language service (TypeScript in this thread) and a tool session. */
export async function lspWorkspace(files: Record<string, string>, options: Partial<ToolSessionOptions> = {}) {
  const base = await mkdtemp(join(tmpdir(), "wb-lsp-"));
  await mkdir(join(base, "ws"));
  const root = await realpath(join(base, "ws"));
  await writeTree(root, files);
  const runtime: Runtime = createNodeRuntime({ root });
  const service = new WorkspaceLanguageService(runtime, inProcessBackend);
  const session = await ToolSession.open({
    runtime,
    dataDir: join(base, "data"),
    home: base,
    builtins: builtinTools,
    trusted: true,
    languageService: service,
    ...options,
  });
  return {
    root,
    runtime,
    service,
    session,
    path: (rel: string) => `${root}/${rel}`,
    async dispose() {
      service.dispose();
      await runtime.dispose();
      await rm(base, { recursive: true, force: true });
    },
  };
}

export interface TscError {
  file: string;
  line: number;
  column: number;
  code: number;
  message: string;
}

/** Real `tsc --noEmit` on the folder: the oracle. Errors with 1-based line and column, files absolute. */
export async function runTsc(root: string): Promise<TscError[]> {
  const output = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [TSC, "--noEmit", "--pretty", "false", "-p", root],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout) => resolve(stdout),
    );
  });
  const errors: TscError[] = [];
  const pattern = /^(.+?)\((\d+),(\d+)\): error TS(\d+): (.*)$/;
  for (const line of output.split("\n")) {
    const match = pattern.exec(line);
    if (!match) continue;
    errors.push({
      file: join(root, match[1]!),
      line: Number(match[2]),
      column: Number(match[3]),
      code: Number(match[4]),
      message: match[5]!,
    });
  }
  return errors;
}

export const execFileAsync = promisify(execFile);
