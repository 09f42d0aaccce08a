/**
 * The preview (issue 29). In Node: the transpiler's cost per module (sucrase, as the preview runs it,
 * against esbuild's native binary on the same 50 TSX files in the same run). In Chromium, on the built
 * page: the first load of a 50-module React + TSX app (bytes handed to the frame, ms to its text), and the
 * time from a shell command that rewrites a module the page imports to the page showing the change (a hot
 * update: the frame keeps react-dom and runs again only the changed modules, their importers and the
 * entry), against the same command writing a file the page does not load (the shell's own share); and the
 * same for the page's HTML, which only a full reload can show (the whole frame again, react-dom included).
 * Each figure comes with where its time went (page marks from preview-host.ts, the frame's own timeline).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Frame, type Page } from "@playwright/test";
import { zipSync } from "fflate";
import { initLexers, transformModule } from "../src/workspace/preview/transform.js";
import { LAUNCH_ARGS, openBenchPage, round, serve, stop } from "./ui-stream.js";

const MODULES = 50;
// esbuild's installer puts the native binary here (an ELF file on Linux, not a JavaScript launcher).
const ESBUILD = fileURLToPath(new URL("../node_modules/esbuild/bin/esbuild", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../e2e/fixtures/preview/", import.meta.url));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]!;

/** A component module of about 40 lines: an interface, state, a list, JSX. */
function component(i: number): string {
  return `import { useState } from "react";

interface Props${i} {
  label: string;
  items?: readonly number[];
}

type Mode = "on" | "off";

export function Part${i}({ label, items = [1, 2, 3] }: Props${i}) {
  const [mode, setMode] = useState<Mode>("off");
  const total: number = items.reduce((sum, n) => sum + n, 0);
  const doubled = items.map((n): number => n * 2);
  return (
    <section className="part" data-index={${i}}>
      <h2>{label} #{${i}}</h2>
      <button type="button" onClick={() => setMode(mode === "on" ? "off" : "on")}>
        {mode}
      </button>
      <ul>
        {doubled.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
      <p>total {total}</p>
    </section>
  );
}
`;
}

const PAGE_HTML =
  '<!doctype html><html><head><title>Bench</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>';

function appFiles(): Record<string, string> {
  const files: Record<string, string> = {
    "app/package.json": JSON.stringify({ name: "bench-app", private: true, type: "module" }),
    "app/index.html": PAGE_HTML,
    "app/src/stamp.ts": 'export const stamp: string = "stamp-0";\n',
    "app/src/main.tsx": `import { createRoot } from "react-dom/client";\nimport { App } from "./App";\ncreateRoot(document.getElementById("root")!).render(<App />);\n`,
  };
  const parts = MODULES - 3; // main, App and stamp are the other three
  for (let i = 0; i < parts; i++) files[`app/src/parts/Part${i}.tsx`] = component(i);
  files["app/src/App.tsx"] = [
    'import { stamp } from "./stamp";',
    ...Array.from({ length: parts }, (_, i) => `import { Part${i} } from "./parts/Part${i}";`),
    "export function App() {",
    "  return (",
    "    <main>",
    "      <h1>{stamp}</h1>",
    ...Array.from({ length: parts }, (_, i) => `      <Part${i} label="part" />`),
    "    </main>",
    "  );",
    "}",
  ].join("\n");
  return files;
}

async function transpilers(files: Record<string, string>) {
  const tsx = Object.entries(files).filter(([path]) => path.endsWith(".tsx"));
  await initLexers();
  for (const [path, text] of tsx) transformModule(path, text); // warm up
  const runs: number[] = [];
  for (let r = 0; r < 20; r++) {
    const start = performance.now();
    for (const [path, text] of tsx) transformModule(path, text);
    runs.push((performance.now() - start) / tsx.length);
  }
  const dir = await mkdtemp(join(tmpdir(), "wb-bench-preview-"));
  try {
    for (const [path, text] of tsx) {
      await mkdir(join(dir, path, ".."), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const paths = tsx.map(([path]) => join(dir, path));
    const args = ["--loader:.tsx=tsx", "--jsx=automatic", "--jsx-dev", "--format=esm", `--outdir=${join(dir, "out")}`, "--log-level=error"];
    const empty = join(dir, "empty.ts");
    await writeFile(empty, "");
    const timed = (files: string[]) => {
      const start = performance.now();
      execFileSync(ESBUILD, [...args, ...files]);
      return performance.now() - start;
    };
    timed(paths);
    const whole: number[] = [];
    const startup: number[] = [];
    for (let r = 0; r < 10; r++) {
      whole.push(timed(paths));
      startup.push(timed([empty]));
    }
    const esbuildPerModule = Math.max(0, median(whole) - median(startup)) / tsx.length;
    const sucrasePerModule = median(runs);
    return {
      modules: tsx.length,
      sucraseMsPerModule: round(sucrasePerModule * 1000) / 1000,
      esbuildBinaryMsPerModule: round(esbuildPerModule * 1000) / 1000,
      esbuildBinaryProcessMs: round(median(startup)),
      sucraseOverEsbuild: esbuildPerModule > 0 ? round(sucrasePerModule / esbuildPerModule) : null,
      note: "sucrase includes es-module-lexer's scan (what the preview runs per module); esbuild's figure is one process over the 50 files, less the same process on an empty file",
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function reactFiles(): Promise<Record<string, Uint8Array>> {
  const dir = await mkdtemp(join(tmpdir(), "wb-bench-react-"));
  const files: Record<string, Uint8Array> = {};
  try {
    for (const [name, tarball] of [
      ["react", "react-18.3.1.tgz"],
      ["react-dom", "react-dom-18.3.1.tgz"],
      ["scheduler", "scheduler-0.23.2.tgz"],
    ] as const) {
      const into = join(dir, name);
      await mkdir(into, { recursive: true });
      execFileSync("tar", ["xzf", join(FIXTURES, tarball), "-C", into, "--strip-components=1"]);
    }
    const walk = async (folder: string): Promise<void> => {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        const full = join(folder, entry.name);
        if (entry.isDirectory()) await walk(full);
        else files[`app/node_modules/${relative(dir, full)}`] = new Uint8Array(await readFile(full));
      }
    };
    await walk(dir);
    return files;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function command(page: Page, line: string): Promise<void> {
  await page.locator(".xterm").click();
  await page.keyboard.type(line);
}

async function idle(page: Page): Promise<void> {
  await page.locator("[data-testid=terminal]:not([data-busy])").waitFor();
}

async function frameShows(frame: Frame, text: string): Promise<void> {
  await frame.waitForFunction(`document.body && document.body.innerText.includes(${JSON.stringify(text)})`, undefined, {
    polling: 5,
    timeout: 30_000,
  });
}

/** Where one reload's time went: page marks (preview-host.ts) and the frame's own timeline, from the write. */
async function reloadPhases(page: Page, start: number, shown: number): Promise<Record<string, number>> {
  const pageMarks = await page.evaluate(() => {
    const last: Record<string, number> = {};
    for (const entry of performance.getEntriesByType("mark"))
      if (entry.name.startsWith("wb-preview-")) last[entry.name.slice(11)] = performance.timeOrigin + entry.startTime;
    performance.clearMarks();
    return last;
  });
  const frame = page.frames().find((f) => f.url() === "about:srcdoc");
  const frameMarks: Record<string, number> = frame
    ? await frame.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
        const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime;
        const o = performance.timeOrigin;
        return {
          frameOrigin: o,
          frameStart: o + (at("wb-frame-start") ?? Number.NaN),
          frameBlobs: o + (at("wb-frame-blobs") ?? Number.NaN),
          domInteractive: o + (nav?.domInteractive ?? Number.NaN),
        };
      })
    : {};
  const out: Record<string, number> = {};
  // The frame's timeline counts only when this write reloaded it (a hot update keeps the document).
  for (const [name, at] of Object.entries({ ...pageMarks, ...frameMarks })) if (at >= start) out[name] = at - start;
  out.shown = shown - start;
  return out;
}

function medianPhases(list: Record<string, number>[]): Record<string, number> {
  const names = new Set(list.flatMap((entry) => Object.keys(entry)));
  return Object.fromEntries(
    [...names].map((name) => [name, round(median(list.flatMap((entry) => (entry[name] === undefined ? [] : [entry[name]]))))]),
  );
}

/**
 * The reference for a full reload: react's and react-dom's development builds (their UMD files) loaded as
 * scripts from blob: URLs (as the frame loads them) into an empty page and rendering one element, timed
 * from the first script's start to the render, in a new page each time (nothing compiled before).
 */
async function reactDomAlone(browser: Browser, react: Record<string, Uint8Array>): Promise<number[]> {
  const decoder = new TextDecoder();
  const scripts = [
    decoder.decode(react["app/node_modules/react/umd/react.development.js"]!),
    decoder.decode(react["app/node_modules/react-dom/umd/react-dom.development.js"]!),
  ];
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const page = await browser.newPage();
    try {
      await page.setContent('<!doctype html><div id="root"></div>');
      const urls = await page.evaluate(
        (texts) => texts.map((text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }))),
        scripts,
      );
      times.push(
        await page.evaluate(async (urls) => {
          const start = performance.now();
          for (const url of urls)
            await new Promise((resolve, reject) => {
              const script = document.createElement("script");
              script.src = url;
              script.onload = resolve;
              script.onerror = reject;
              document.head.appendChild(script);
            });
          const { React, ReactDOM } = window as unknown as {
            React: { createElement(type: string, props: null, text: string): unknown };
            ReactDOM: { flushSync(fn: () => void): void; createRoot(node: Element): { render(element: unknown): void } };
          };
          ReactDOM.flushSync(() => ReactDOM.createRoot(document.getElementById("root")!).render(React.createElement("h1", null, "alone")));
          return performance.now() - start;
        }, urls),
      );
    } finally {
      await page.close();
    }
  }
  return times.slice(2);
}

async function inChromium(files: Record<string, string>) {
  const { url, server } = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const page = await openBenchPage(browser, url, `bench-preview-${Date.now().toString(36)}&memory=1`);
    const react = await reactFiles();
    const alone = await reactDomAlone(browser, react);
    const all: Record<string, Uint8Array> = { ...react };
    for (const [path, text] of Object.entries(files)) all[path] = new TextEncoder().encode(text);
    await page.getByTestId("upload-zip").setInputFiles({ name: "app.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(all)) });
    await page
      .getByTestId("notice")
      .getByText(/Imported \d+ files/)
      .waitFor({ timeout: 60_000 });

    await page.getByTestId("tab-preview").click();
    await page.getByTestId("preview-address").fill("/app/");
    const firstStart = Date.now();
    await page.getByTestId("preview-address").press("Enter");
    await page.frameLocator("[data-testid=preview-frame]").locator("h1").getByText("stamp-0").waitFor({ timeout: 60_000 });
    const firstLoadMs = Date.now() - firstStart;
    const srcdocBytes = await page.getByTestId("preview-frame").evaluate((frame: HTMLIFrameElement) => new Blob([frame.srcdoc]).size);
    const frame = page.frames().find((f) => f.url() === "about:srcdoc")!;

    const reload: number[] = [];
    const shellOnly: number[] = [];
    const phases: Record<string, number>[] = [];
    for (let i = 1; i <= 12; i++) {
      await page.getByTestId("tab-terminal").click();
      await command(page, `echo 'export const stamp: string = "stamp-${i}";' > app/src/stamp.ts`);
      const start = Date.now();
      await page.keyboard.press("Enter");
      await frameShows(frame, `stamp-${i}`);
      const shown = Date.now();
      reload.push(shown - start);
      phases.push(await reloadPhases(page, start, shown));
      await idle(page);
      // The same command on a file the page never loaded: the shell's share of the figure above.
      await command(page, `echo 'export const stamp: string = "other-${i}";' > app/src/unused.ts`);
      const shellStart = Date.now();
      await page.keyboard.press("Enter");
      await idle(page);
      shellOnly.push(Date.now() - shellStart);
    }
    // The page's HTML: only a full reload shows it.
    const full: number[] = [];
    const fullPhases: Record<string, number>[] = [];
    for (let i = 1; i <= 7; i++) {
      await idle(page);
      await command(page, `echo '${PAGE_HTML.replace("<body>", `<body><p>html-${i}</p>`)}' > app/index.html`);
      const start = Date.now();
      await page.keyboard.press("Enter");
      await frameShows(frame, `html-${i}`);
      const shown = Date.now();
      full.push(shown - start);
      fullPhases.push(await reloadPhases(page, start, shown));
    }
    // The first rounds warm the shell and the caches.
    const steady = reload.slice(2);
    const shell = shellOnly.slice(2);
    const fullSteady = full.slice(2);
    return {
      firstLoad: { ms: firstLoadMs, srcdocKiB: round(srcdocBytes / 1024) },
      phasesMs: medianPhases(phases.slice(2)),
      writeToReloadMs: { median: median(steady), p90: p90(steady), samples: steady.length },
      shellWriteOnlyMs: { median: median(shell), p90: p90(shell) },
      targetMs: 200,
      withinTarget: median(steady) <= 200,
      fullReload: {
        writeToReloadMs: { median: median(fullSteady), p90: p90(fullSteady), samples: fullSteady.length },
        phasesMs: medianPhases(fullPhases.slice(2)),
      },
      reactDomDevelopmentAloneMs: { median: round(median(alone)), p90: round(p90(alone)), samples: alone.length },
    };
  } finally {
    await browser.close();
    stop(server);
  }
}

export async function benchPreview() {
  const files = appFiles();
  return { benchmark: "preview", transpiler: await transpilers(files), page: await inChromium(files) };
}
