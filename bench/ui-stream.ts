/**
 * The built app in real Chromium (Debian's, through playwright's library API), served by `vite preview`:
 * - time to interactive of a first visit on localhost (navigation start until the runtime is ready and the
 *   palette button is enabled), with FCP and LCP, median of several loads, each in a fresh context;
 * - the longest frame while 10,000 lines stream into a bash card on the embedded runtime, once with the
 *   card alone and once beside 20 finished cards (updates are per call, so the other cards should cost
 *   nothing: compare the main thread's script time of the two runs), against the longest frame of the same
 *   page left idle for as long, measured in the same run.
 * Uses dist/ as it is (built first when missing), like bundle-size.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { chromium, type Browser, type CDPSession, type Page } from "@playwright/test";

const LOADS = 5;
const OTHER_CARDS = 20;
const STREAM_LINES = 10_000;
/** Output streams per top-level statement on the embedded runtime, so the lines come in 100 statements. */
const STATEMENTS = 100;
export const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

export const round = (n: number) => Number(n.toFixed(1));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function serve(): Promise<{ url: string; server: ChildProcess }> {
  if (!existsSync("dist/index.html")) execFileSync("npx", ["vite", "build"], { stdio: "ignore" });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn("npx", ["vite", "preview", "--port", String(port), "--strictPort", "--host", "127.0.0.1"], {
    stdio: "ignore",
    detached: true,
  });
  for (let i = 0; i < 300; i++) {
    const up = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, server };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  stop(server);
  throw new Error(`vite preview did not answer on ${url} within 30 s`);
}

export function stop(server: ChildProcess): void {
  // npx starts vite as a child: end the whole group this bench started.
  if (server.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      server.kill("SIGTERM");
    }
  }
}

/**
 * tsx (which runs the benches) wraps named inner functions in `__name(...)`, and playwright sends a
 * function's source text to the page, where `__name` does not exist: give the page one that does nothing.
 */
export const NAME_SHIM = "globalThis.__name = (fn) => fn;";

/** A new page of the built workbench at `url`, past the welcome, in workspace `workspace`, once its shell answers. */
export async function openBenchPage(browser: Browser, url: string, workspace: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.addInitScript(NAME_SHIM);
  await page.addInitScript(() => window.localStorage.setItem("workbench-welcome-dismissed", "1"));
  await page.goto(`${url}/?workspace=${workspace}`);
  await page.locator(".xterm-rows").getByText("user@workbench").first().waitFor();
  return page;
}

/** Runs in the page before its scripts: notes when it becomes interactive, and its largest paint. */
const WATCH_READY = () => {
  const w = window as unknown as { __ready?: number; __lcp?: number };
  const ready = () => {
    const button = document.querySelector<HTMLButtonElement>("[data-testid=open-palette]");
    const status = document.querySelector<HTMLElement>("[data-testid=runtime-status]");
    return Boolean(button && !button.disabled && status?.dataset.phase === "ready");
  };
  const observer = new MutationObserver(() => {
    if (w.__ready === undefined && ready()) {
      w.__ready = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__lcp = entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
};

async function timeToInteractive(browser: Browser, url: string) {
  const loads: { ttiMs: number; fcpMs: number; lcpMs: number; domContentLoadedMs: number }[] = [];
  for (let i = 0; i < LOADS; i++) {
    // A fresh context each time: no HTTP cache, no stored workspace, as on a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(NAME_SHIM);
    await page.addInitScript(WATCH_READY);
    await page.goto(`${url}/`);
    await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready !== undefined, undefined, {
      timeout: 60_000,
      polling: 100,
    });
    // LCP is final once the page has been interacted with or settled; give it a moment past ready.
    await page.waitForTimeout(300);
    loads.push(
      await page.evaluate(() => {
        const w = window as unknown as { __ready: number; __lcp?: number };
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
        return {
          ttiMs: w.__ready,
          fcpMs: fcp,
          lcpMs: w.__lcp ?? Number.NaN,
          domContentLoadedMs: nav?.domContentLoadedEventEnd ?? Number.NaN,
        };
      }),
    );
    await context.close();
  }
  return {
    loads: LOADS,
    medianMs: round(median(loads.map((l) => l.ttiMs))),
    minMs: round(Math.min(...loads.map((l) => l.ttiMs))),
    maxMs: round(Math.max(...loads.map((l) => l.ttiMs))),
    fcpMedianMs: round(median(loads.map((l) => l.fcpMs))),
    lcpMedianMs: round(median(loads.map((l) => l.lcpMs))),
    domContentLoadedMedianMs: round(median(loads.map((l) => l.domContentLoadedMs))),
  };
}

/** Fills the palette's form for bash; the caller presses Enter when it is ready to measure. */
async function prepareBash(page: Page, command: string, description: string) {
  await page.keyboard.press("Control+k");
  await page.getByLabel("Filter tools").fill("bash");
  await page.getByLabel("Filter tools").press("Enter");
  await page.locator("#tool-field-command").fill(command);
  await page.locator("#tool-field-description").fill(description);
}

async function waitCompleted(page: Page, index: number) {
  await page.waitForFunction(
    (n) => ["completed", "error"].includes(document.querySelectorAll<HTMLElement>("[data-testid=call-card]")[n]?.dataset.state ?? ""),
    index,
    { timeout: 120_000, polling: 250 },
  );
}

/** Starts recording frame lengths (rAF deltas), long tasks, and the most live lines shown. */
export async function startRecording(page: Page) {
  await page.evaluate(() => {
    const rec = {
      deltas: [] as number[],
      last: performance.now(),
      on: true,
      longTasks: [] as number[],
      maxLiveLines: 0,
      observers: [] as { disconnect(): void }[],
    };
    (window as unknown as { __rec: typeof rec }).__rec = rec;
    const tick = (time: number) => {
      if (!rec.on) return;
      rec.deltas.push(time - rec.last);
      rec.last = time;
      const live = document.querySelector<HTMLElement>("[data-testid=call-live]");
      if (live) rec.maxLiveLines = Math.max(rec.maxLiveLines, Number(live.dataset.lines));
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const longTasks = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) rec.longTasks.push(entry.duration);
    });
    longTasks.observe({ type: "longtask" });
    rec.observers.push(longTasks);
  });
}

export async function stopRecording(page: Page) {
  return page.evaluate(() => {
    const rec = (
      window as unknown as {
        __rec: { deltas: number[]; on: boolean; longTasks: number[]; maxLiveLines: number; observers: { disconnect(): void }[] };
      }
    ).__rec;
    rec.on = false;
    rec.observers.forEach((observer) => observer.disconnect());
    // The first delta spans the set-up; it is not a frame of the run.
    return { deltas: rec.deltas.slice(1), longTasks: rec.longTasks, maxLiveLines: rec.maxLiveLines };
  });
}

export function frameSummary(recorded: { deltas: number[]; longTasks: number[] }, durationMs: number) {
  return {
    durationMs: round(durationMs),
    frames: recorded.deltas.length,
    longestFrameMs: round(Math.max(0, ...recorded.deltas)),
    p95FrameMs: round(percentile(recorded.deltas, 95)),
    p99FrameMs: round(percentile(recorded.deltas, 99)),
    framesOver50Ms: recorded.deltas.filter((d) => d > 50).length,
    longTasks: recorded.longTasks.length,
    longestTaskMs: round(Math.max(0, ...recorded.longTasks)),
  };
}

function streamCommand(): string {
  const per = STREAM_LINES / STATEMENTS;
  return Array.from({ length: STATEMENTS }, (_, i) => `for i in $(seq ${i * per + 1} ${(i + 1) * per}); do echo line $i; done`).join("; ");
}

/** The renderer's main-thread totals (seconds in Chrome's Performance domain), in ms. */
async function mainThread(cdp: CDPSession) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const value = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
  return {
    scriptMs: value("ScriptDuration"),
    layoutMs: value("LayoutDuration"),
    styleMs: value("RecalcStyleDuration"),
    taskMs: value("TaskDuration"),
  };
}

async function streamInto(page: Page, cdp: CDPSession, index: number) {
  await prepareBash(page, streamCommand(), "Streams ten thousand lines");
  await startRecording(page);
  const before = await mainThread(cdp);
  const started = Date.now();
  await page.locator("#tool-field-description").press("Enter");
  await waitCompleted(page, index);
  const durationMs = Date.now() - started;
  const after = await mainThread(cdp);
  const recorded = await stopRecording(page);
  const card = page.getByTestId("call-card").nth(index);
  return {
    ...frameSummary(recorded, durationMs),
    mainThread: {
      scriptMs: round(after.scriptMs - before.scriptMs),
      layoutMs: round(after.layoutMs - before.layoutMs),
      styleMs: round(after.styleMs - before.styleMs),
      taskMs: round(after.taskMs - before.taskMs),
      scriptMsPerSecond: round(((after.scriptMs - before.scriptMs) / durationMs) * 1000),
    },
    liveLinesShownAtMost: recorded.maxLiveLines,
    lineNodesAfter: await page.locator(".vline").count(),
    finalState: await card.getAttribute("data-state"),
  };
}

async function streaming(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(NAME_SHIM);
  await page.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
  await page.goto(`${url}/?workspace=bench-ui-stream&memory=1`);
  await page.locator("[data-testid=open-palette]:not([disabled])").waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const alone = await streamInto(page, cdp, 0);
  for (let i = 0; i < OTHER_CARDS; i++) {
    await prepareBash(page, `seq 1 ${300 + i}`, `Fills card ${i + 1}`);
    await page.locator("#tool-field-description").press("Enter");
    await waitCompleted(page, i + 1);
  }
  const beside = await streamInto(page, cdp, OTHER_CARDS + 1);
  // The reference: the same page, idle, for as long as the stream took.
  await startRecording(page);
  await page.waitForTimeout(beside.durationMs);
  const idle = frameSummary(await stopRecording(page), beside.durationMs);
  await context.close();
  return { alone, besideOtherCards: { otherCards: OTHER_CARDS, ...beside }, idle };
}

export async function benchUiStream() {
  const { url, server } = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const tti = await timeToInteractive(browser, url);
    const stream = await streaming(browser, url);
    return {
      benchmark: "ui-stream",
      reference: "longest frame of the same page left idle for as long as the stream, same run",
      browser: `chromium ${browser.version()}`,
      timeToInteractive: tti,
      stream: {
        lines: STREAM_LINES,
        statements: STATEMENTS,
        ...stream,
        ratioLongestFrameToIdle: round(stream.besideOtherCards.longestFrameMs / Math.max(1, stream.idle.longestFrameMs)),
        ratioLongestFrameAloneToIdle: round(stream.alone.longestFrameMs / Math.max(1, stream.idle.longestFrameMs)),
        // Near 1 when the finished cards cost nothing while another call streams (per second: the runtime's
        // own main-thread work grows with the stream's length, which varies from run to run).
        ratioScriptPerSecondBesideToAlone: Number(
          (stream.besideOtherCards.mainThread.scriptMsPerSecond / Math.max(0.1, stream.alone.mainThread.scriptMsPerSecond)).toFixed(2),
        ),
      },
    };
  } finally {
    await browser.close();
    stop(server);
  }
}

// `node --import ./src/cli/register.mjs bench/ui-stream.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchUiStream(), null, 2));
