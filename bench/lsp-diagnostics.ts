/**
 * The language service on a generated 2,000-file TypeScript workspace (node runtime, TypeScript in this
 * thread, as the CLI runs it): the first load (TypeScript imported, the files listed and read, the lib
 * files, the first program and diagnostics), then diagnostics after an edit, warm (the edit tool's whole
 * call, and the service's part of it), against `tsc --noEmit` on the same files in the same run. The
 * page's worker bytes come from dist/ when it has been built.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { inProcessBackend } from "../src/lsp/in-process.js";
import { nodeLib } from "../src/lsp/node-libs.js";
import { TsProject } from "../src/lsp/project.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import { ToolSession } from "../src/session/host/tool-session.js";
import { builtinTools } from "../src/tools/builtins.js";
import { runtimeFiles, WorkspaceLanguageService } from "../src/workspace/language-service.js";
import { chromium } from "@playwright/test";
import { chainWorkspace } from "./lsp-workspace.js";
import { LAUNCH_ARGS, serve, stop } from "./ui-stream.js";

const TSC = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
}

const kib = (n: number) => Number((n / 1024).toFixed(1));

/** The page's language worker as built: its entry, TypeScript's chunk, and every lib chunk. */
function pageBytes() {
  if (!existsSync("dist/assets")) return { note: "dist/ not built (npx vite build): page bytes not measured" };
  const assets = readdirSync("dist/assets").filter((f) => f.endsWith(".js"));
  const sum = (files: string[]) => {
    const raw = files.reduce((s, f) => s + statSync(join("dist/assets", f)).size, 0);
    const gz = files.reduce((s, f) => s + gzipSync(readFileSync(join("dist/assets", f)), { level: 9 }).length, 0);
    return { files: files.length, rawKiB: kib(raw), gzipKiB: kib(gz) };
  };
  return {
    workerAndTypeScript: sum(assets.filter((f) => /^(worker|project)-/.test(f))),
    allLibChunks: sum(assets.filter((f) => /^lib\./.test(f))),
  };
}

/**
 * The page's first load in Chromium: from opening a .ts file in the editor (nothing of TypeScript fetched
 * before) to its diagnostics shown, and the bytes of the worker, TypeScript and lib chunks it fetched.
 */
async function pageFirstLoad() {
  const { url, server } = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    const fetched: { url: string; bytes: number }[] = [];
    page.on("response", (response) => {
      if (!/\/assets\/(worker|project|lib\.)[^/]*\.js$/.test(response.url())) return;
      void response.body().then(
        (body) => fetched.push({ url: response.url(), bytes: body.length }),
        () => undefined,
      );
    });
    await page.goto(`${url}/?workspace=bench-lsp-${Date.now().toString(36)}&memory=1`);
    await page.locator("[data-testid=terminal]").getByText("user@workbench").first().waitFor();
    const beforeOpen = fetched.length;
    await page.locator(".xterm").click();
    await page.keyboard.type(`printf 'export const n: number = "x";\\n' > first.ts`);
    await page.keyboard.press("Enter");
    const tree = page.locator('.file-tree li[data-path="/workspace/first.ts"] > .tree-row > button.tree-name');
    await tree.waitFor();
    const start = Date.now();
    await tree.click();
    await page
      .locator('[data-testid=file-editor][data-path="/workspace/first.ts"] [data-testid=editor-host][data-diagnostics="1"]')
      .waitFor({ timeout: 120_000 });
    const ms = Date.now() - start;
    await page.waitForTimeout(200);
    const sum = (pattern: RegExp) => kib(fetched.filter((f) => pattern.test(f.url)).reduce((s, f) => s + f.bytes, 0));
    return {
      browser: `chromium ${browser.version()}`,
      fetchedBeforeOpening: beforeOpen,
      openToDiagnosticsMs: ms,
      fetchedKiB: {
        workerAndTypeScript: sum(/\/(worker|project)-/),
        libs: sum(/\/lib\./),
        libFiles: fetched.filter((f) => /\/lib\./.test(f.url)).length,
      },
      note: "bytes as served by vite preview (no compression); the gzip sizes of the same chunks are under page",
    };
  } finally {
    await browser.close();
    stop(server);
  }
}

export async function benchLspDiagnostics(runs = 9) {
  const base = await mkdtemp(join(tmpdir(), "wb-bench-lsp-"));
  try {
    const root = join(base, "ws");
    const files = chainWorkspace(2000);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const runtime = createNodeRuntime({ root });
    const target = `${root}/src/part10/m1000.ts`;

    // First load, by itself: what a first touch of a script costs, and which lib files it needed.
    const libs: string[] = [];
    let libBytes = 0;
    const coldStart = performance.now();
    const project = await TsProject.open(root, {
      ...runtimeFiles(runtime),
      lib: async (name) => {
        const text = await nodeLib(name);
        if (text !== undefined) {
          libs.push(name);
          libBytes += Buffer.byteLength(text);
        }
        return text;
      },
    });
    const opened = performance.now();
    await project.diagnostics([target]);
    const firstLoadMs = performance.now() - coldStart;

    // Warm: the edit tool, alternately breaking and fixing one file, through a session's service.
    const service = new WorkspaceLanguageService(runtime, inProcessBackend);
    const session = await ToolSession.open({
      runtime,
      dataDir: join(base, "data"),
      home: base,
      builtins: builtinTools,
      trusted: false,
      languageService: service,
    });
    await session.run("read", { filePath: target });
    await service.diagnostics();
    const good = "export const v1000: number = v999 + 1;";
    const bad = "export const v1000: number = String(v999);";
    const toolMs: number[] = [];
    const serviceMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      await session.run("read", { filePath: target });
      const [from, to] = i % 2 === 0 ? [good, bad] : [bad, good];
      const start = performance.now();
      const call = await session.run("edit", { filePath: target, oldString: from, newString: to });
      toolMs.push(performance.now() - start);
      if (call.status !== "completed") throw new Error(`edit failed: ${call.error}`);
      if ((i % 2 === 0) !== call.output!.includes("LSP errors detected"))
        throw new Error(`run ${i}: diagnostics not as expected:\n${call.output}`);
      // The service's own part: the file read again and the open files' diagnostics.
      const s = performance.now();
      await service.touchFile(target, true);
      await service.diagnostics();
      serviceMs.push(performance.now() - s);
    }
    if ((await readFile(target, "utf8")).includes(bad)) await session.run("edit", { filePath: target, oldString: bad, newString: good });
    service.dispose();

    const tscMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      try {
        execFileSync(process.execPath, [TSC, "--noEmit", "-p", root], { stdio: "ignore" });
      } catch {
        // tsc exits 2 when it finds errors; the timing stands either way.
      }
      tscMs.push(performance.now() - start);
    }
    const warm = median(toolMs);
    const tsc = median(tscMs);
    return {
      benchmark: "lsp-diagnostics",
      files: 2000,
      runs,
      firstLoad: {
        totalMs: Number(firstLoadMs.toFixed(1)),
        listAndReadMs: Number((opened - coldStart).toFixed(1)),
        libFiles: libs.length,
        libKiB: kib(libBytes),
      },
      warmEditWithDiagnostics: { medianMs: warm, targetMs: 300, serviceOnlyMedianMs: median(serviceMs) },
      reference: { tscNoEmitMedianMs: tsc, runs: tscMs.length },
      ratioToTsc: Number((warm / tsc).toFixed(3)),
      page: { ...pageBytes(), firstLoad: await pageFirstLoad().catch((error: unknown) => ({ error: String(error) })) },
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

// `node --import ./src/cli/register.mjs bench/lsp-diagnostics.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchLspDiagnostics(), null, 2));
