/**
 * webfetch of a 1 MB HTML page converted to markdown, through a tool session on Node against a local HTTP
 * server: the median of the whole call (request, 1 MB read under the limit, turndown conversion, truncation),
 * against the same call with format "html" (no conversion) in the same run. Target: under 200 ms. The page
 * converts with the browser's DOMParser instead of domino (turndown's own parser on Node, pure JS and
 * most of the cost), so the same page is also converted in Chromium by turndown's browser build with the
 * options src/tools/web/html.ts uses.
 */
import { readFile } from "node:fs/promises";
import { chromium } from "@playwright/test";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { ToolSession } from "../src/session/tool-session.js";
import { builtinTools } from "../src/tools/builtins.js";

const RUNS = 5;

function page(): string {
  const section = (n: number) =>
    `<section><h2>Part ${n}</h2><p>Some <b>bold</b>, <i>italic</i> and <a href="/p/${n}">linked</a> text about item ${n}, with <code>code()</code>.</p>` +
    `<ul><li>first point</li><li>second point with <em>emphasis</em></li></ul><pre><code>const x${n} = ${n};\nconsole.log(x${n});</code></pre>` +
    `<table><tr><th>a</th><th>b</th></tr><tr><td>${n}</td><td>${n * 2}</td></tr></table><script>track(${n})</script><!-- note ${n} --></section>\n`;
  let html = "<!doctype html><html><head><title>Bench</title><style>p{margin:0}</style></head><body>";
  for (let n = 1; html.length < 1024 * 1024; n++) html += section(n);
  return `${html}</body></html>`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (n: number) => Number(n.toFixed(1));

export async function benchWebfetchConvert() {
  const html = page();
  const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
  try {
    const session = await ToolSession.open({ runtime, dataDir: "/data", home: "/home/user", builtins: builtinTools, trusted: false });
    const time = async (format: string) => {
      const times: number[] = [];
      let output = "";
      for (let i = 0; i < RUNS + 1; i++) {
        const start = performance.now();
        const call = await session.run("webfetch", { url, format });
        const ms = performance.now() - start;
        if (call.status !== "completed") throw new Error(`webfetch ${format} run ${i} failed: ${call.error}`);
        output = call.output ?? "";
        if (i > 0) times.push(ms); // the first run loads turndown
      }
      return { medianMs: round(median(times)), outputChars: output.length };
    };
    const raw = await time("html");
    const markdown = await time("markdown");
    const text = await time("text");
    const browser = await inChromium(html);
    return {
      benchmark: "webfetch-convert",
      pageBytes: html.length,
      runs: RUNS,
      markdown,
      text,
      reference: { what: "the same call with format html (no conversion)", ...raw },
      chromium: { what: "turndown's browser build (DOMParser) converting the same page, same options, median", ...browser },
      ratioToReference: round(markdown.medianMs / Math.max(raw.medianMs, 0.1)),
      targetMs: 200,
      withinTarget: { node: markdown.medianMs < 200, chromium: browser.medianMs < 200 },
    };
  } finally {
    await runtime.dispose();
    server.closeAllConnections();
    server.close();
  }
}

async function inChromium(html: string): Promise<{ medianMs: number; outputChars: number }> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: await readFile("node_modules/turndown/lib/turndown.browser.umd.js", "utf8") });
    return await page.evaluate(
      ({ html, runs }) => {
        const Service = (globalThis as unknown as { TurndownService: new (options: object) => { remove(tags: string[]): void; turndown(html: string): string } }).TurndownService;
        const service = new Service({ headingStyle: "atx", hr: "---", bulletListMarker: "-", codeBlockStyle: "fenced", emDelimiter: "*" });
        service.remove(["script", "style", "noscript", "iframe", "object", "embed", "meta", "link", "template", "head"]);
        const times: number[] = [];
        let output = "";
        for (let i = 0; i < runs + 1; i++) {
          const start = performance.now();
          output = service.turndown(html);
          if (i > 0) times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        return { medianMs: Number(times[Math.floor(times.length / 2)]!.toFixed(1)), outputChars: output.length };
      },
      { html, runs: RUNS },
    );
  } finally {
    await browser.close();
  }
}
