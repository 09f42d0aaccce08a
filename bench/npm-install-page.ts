/**
 * `npm install` of a 100-package tree (106 folders with the nested conflicts) from the registry stand-in on
 * loopback, typed into the terminal of the built page in Chromium (a fresh IndexedDB workspace, as a
 * visitor has), against this machine's real npm from the same stand-in in the same run, each with an empty
 * cache; then both again from their cache with the registry gone (`npm ci --offline`, node_modules removed
 * first). While the page installs, the longest main-thread task and frame are recorded: the tarballs are
 * read in the shell's worker, so the page should only see file writes and the terminal's lines.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { largeNpmTree } from "../test/support/npm-large-tree.js";
import { startNpmRegistry } from "../test/support/npm-registry.js";
import { frameSummary, LAUNCH_ARGS, NAME_SHIM, round, serve, startRecording, stop, stopRecording } from "./ui-stream.js";

function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

async function terminalText(page: Page): Promise<string> {
  const rows = await page.locator(".xterm-rows > div").allInnerTexts();
  return rows.map((row) => row.replace(/\u00a0/g, " ").trimEnd()).join("\n");
}

/**
 * Types `command` into the terminal and waits for its prompt to come back; the time from Enter to then. A
 * quick command may be over before its busy mark can be seen: it gets a moment instead.
 */
async function typed(page: Page, command: string, quick = false): Promise<number> {
  await page.locator(".xterm").click();
  await page.keyboard.type(command);
  const idle = page.locator("[data-testid=terminal]:not([data-busy])");
  const start = performance.now();
  await page.keyboard.press("Enter");
  if (quick) await page.waitForTimeout(300);
  else await page.locator("[data-testid=terminal][data-busy]").waitFor({ state: "attached", timeout: 10_000 });
  await idle.waitFor({ timeout: 300_000 });
  return performance.now() - start;
}

/** Runs `command`, recording frames and long tasks meanwhile; fails unless the terminal then shows `expect`. */
async function measured(page: Page, command: string, expect: RegExp) {
  await typed(page, "clear", true);
  await startRecording(page);
  const ms = await typed(page, command);
  const recorded = await stopRecording(page);
  const screen = await terminalText(page);
  if (!expect.test(screen)) throw new Error(`the page's ${command} did not print ${expect}:\n${screen}`);
  const frames = frameSummary(recorded, ms);
  return { ms, frames, progressLines: screen.split("\n").filter((line) => line.startsWith("npm progress:")).length };
}

export async function benchNpmInstallPage() {
  const tree = largeNpmTree();
  const registry = await startNpmRegistry(tree.packages);
  const scratch = await mkdtemp(join(tmpdir(), "workbench-bench-npm-page-"));
  const manifest = JSON.stringify({ name: "bench-app", version: "1.0.0", dependencies: tree.dependencies });
  const realDir = join(scratch, "app");
  await mkdir(realDir, { recursive: true });
  await writeFile(join(realDir, "package.json"), manifest);
  await writeFile(join(scratch, "user-npmrc"), "");
  await writeFile(join(scratch, "global-npmrc"), "");
  const env = {
    ...cleanEnv(),
    npm_config_cache: join(scratch, "real-cache"),
    npm_config_userconfig: join(scratch, "user-npmrc"),
    npm_config_globalconfig: join(scratch, "global-npmrc"),
    npm_config_registry: `${registry.url}/`,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  const real = async (args: string[]) => {
    const start = performance.now();
    await promisify(execFile)("npm", [...args, "--ignore-scripts"], { cwd: realDir, env });
    return performance.now() - start;
  };
  const { url, server } = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    await page.addInitScript(NAME_SHIM);
    await page.addInitScript(() => window.localStorage.setItem("workbench-welcome-dismissed", "1"));
    await page.goto(`${url}/?workspace=bench-npm-${Date.now().toString(36)}`);
    await page.locator("[data-testid=terminal]:not([data-busy])").waitFor({ timeout: 60_000 });
    await typed(page, `echo '${manifest}' > package.json && echo 'registry=${registry.url}/' > .npmrc`, true);

    const realColdMs = await real(["install"]);
    const pageCold = await measured(page, "npm install", /added 10\d packages in/);
    registry.setOffline(true);
    await rm(join(realDir, "node_modules"), { recursive: true, force: true });
    const realCachedMs = await real(["ci", "--offline"]);
    await typed(page, "rm -rf node_modules", true);
    const pageCached = await measured(page, "npm ci --offline", /added 10\d packages in/);
    return {
      benchmark: "npm-install-page",
      reference: "real npm (this machine's, --ignore-scripts, fresh cache) from the same registry stand-in, same run",
      packages: tree.packages.length,
      cold: {
        pageMs: round(pageCold.ms),
        realNpmMs: round(realColdMs),
        ratio: Number((pageCold.ms / realColdMs).toFixed(3)),
        progressLines: pageCold.progressLines,
        mainThread: pageCold.frames,
      },
      fromCacheOffline: {
        pageMs: round(pageCached.ms),
        realNpmMs: round(realCachedMs),
        ratio: Number((pageCached.ms / realCachedMs).toFixed(3)),
        mainThread: pageCached.frames,
      },
    };
  } finally {
    await browser.close();
    stop(server);
    await registry.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
