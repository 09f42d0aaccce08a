/**
 * The embedded shell's `node` in Chromium, on the built page (issue 26), against real node in the same
 * run: the compute-heavy program of bench/node-run.ts (JSON round trips of tens of MB, a regex-heavy
 * transform, a numeric loop; it times its own work, so the ratio is the two engines', start-up apart),
 * and the first run's cost in the page: the bytes fetched for it and the ms from Enter to the prompt.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { zipSync } from "fflate";
import { COMPUTE } from "./node-run.js";
import { LAUNCH_ARGS, openBenchPage, round, serve, stop } from "./ui-stream.js";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface ComputeResult {
  totalMs: number;
  jsonMs: number;
  regexMs: number;
  numericMs: number;
}

async function idle(page: Page): Promise<void> {
  await page.locator("[data-testid=terminal]:not([data-busy])").waitFor({ timeout: 120_000 });
}

/** Types a command, presses Enter, and waits for the prompt; returns the ms between. */
async function run(page: Page, line: string): Promise<number> {
  await page.locator(".xterm").click();
  await page.keyboard.type(line);
  const started = Date.now();
  await page.keyboard.press("Enter");
  await page
    .locator("[data-testid=terminal][data-busy]")
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  await idle(page);
  return Date.now() - started;
}

/** The last compute result on the screen: rows are joined as drawn, so a wrapped line reads whole. */
async function lastResult(page: Page): Promise<ComputeResult> {
  const rows = await page.locator(".xterm-rows > div").allInnerTexts();
  const found = [
    ...rows
      .join("")
      .replace(/\u00a0/g, " ")
      .matchAll(/\{"megabytes"[^}]*\}/g),
  ].at(-1);
  if (!found) throw new Error("the compute program printed no result in the page");
  return JSON.parse(found[0]) as ComputeResult;
}

function realNode(dir: string): ComputeResult {
  const result = spawnSync(process.execPath, ["compute.js"], { cwd: dir, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`real node failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ComputeResult;
}

export async function benchNodeComputePage(runs = 3) {
  const dir = mkdtempSync(join(tmpdir(), "workbench-node-compute-"));
  writeFileSync(join(dir, "compute.js"), COMPUTE);
  const { url, server } = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const page = await openBenchPage(browser, url, `bench-node-compute-${Date.now().toString(36)}&memory=1`);
    await page.getByTestId("upload-zip").setInputFiles({
      name: "compute.zip",
      mimeType: "application/zip",
      buffer: Buffer.from(zipSync({ "compute.js": new TextEncoder().encode(COMPUTE) })),
    });
    await page
      .getByTestId("notice")
      .getByText(/Imported \d+ files?/)
      .waitFor({ timeout: 60_000 });

    // The first node of the page's life: what it fetches, and how long until the prompt is back. The
    // page's own lazy parts (the chat, the sessions) have loaded first, so they are not counted.
    await page.waitForLoadState("networkidle");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const fetched: { url: string; bytes: number; gzipBytes: number }[] = [];
    const onResponse = async (response: import("@playwright/test").Response) => {
      // A blob: URL is the frame reading what the page handed it, not a fetch.
      if (!response.url().startsWith("http")) return;
      const body = await response.body().catch(() => undefined);
      fetched.push({
        url: new URL(response.url()).pathname,
        bytes: body?.byteLength ?? 0,
        gzipBytes: body ? gzipSync(body).byteLength : 0,
      });
    };
    page.on("response", onResponse);
    const firstMs = await run(page, "node -e 1");
    page.off("response", onResponse);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const ours: ComputeResult[] = [];
    const theirs: ComputeResult[] = [];
    const oursWall: number[] = [];
    for (let i = 0; i < runs; i++) {
      await run(page, "clear");
      oursWall.push(await run(page, "node compute.js"));
      ours.push(await lastResult(page));
      theirs.push(realNode(dir));
    }
    const field = (results: ComputeResult[], key: keyof ComputeResult) => round(median(results.map((result) => result[key])));
    return {
      benchmark: "node-compute-page",
      reference: "real node (this process' binary) on the same program, same run",
      browser: `chromium ${browser.version()}`,
      firstRun: {
        ms: firstMs,
        fetchedKiB: round(fetched.reduce((sum, entry) => sum + entry.bytes, 0) / 1024),
        fetchedGzipKiB: round(fetched.reduce((sum, entry) => sum + entry.gzipBytes, 0) / 1024),
        files: fetched.map((entry) => `${entry.url} ${round(entry.bytes / 1024)} KiB`),
        note: "from Enter on the page's first `node -e 1` to the prompt: the runtime's script fetched, the sandbox frame and its worker started",
      },
      compute: {
        embeddedMs: field(ours, "totalMs"),
        realMs: field(theirs, "totalMs"),
        ratio: round(field(ours, "totalMs") / field(theirs, "totalMs")),
        target: "at most 1.5",
        parts: {
          json: { embeddedMs: field(ours, "jsonMs"), realMs: field(theirs, "jsonMs") },
          regex: { embeddedMs: field(ours, "regexMs"), realMs: field(theirs, "regexMs") },
          numeric: { embeddedMs: field(ours, "numericMs"), realMs: field(theirs, "numericMs") },
        },
        embeddedWallMs: median(oursWall),
      },
    };
  } finally {
    await browser.close();
    stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
