/**
 * Share links (issue 18): how long a link is, by encoding, on the same shares in the same run:
 * - ours: the packed state (manifest + raw bytes) raw-deflated at level 9, base64url;
 * - deflate of the JSON file form (`.workbench.json`, binary as base64url), base64url;
 * - gzip framing of our packed state (deflate plus an 18-byte header and trailer), base64url;
 * - lz-string's compressToEncodedURIComponent of the JSON file form (what many playgrounds use);
 * - brotli (quality 11) of our packed state, base64url: for reference only, browsers cannot decompress
 *   brotli from script without shipping a decoder.
 * Shares: the 20-file demo with a 30-call session; the built-in demo script as a share; the chat bench's
 * 200-step, 1,000-call script as a share (a long generated session).
 * Then, in Chromium: time from opening a link to its files shown in the tree (a new workspace is written
 * and the page moves to it), against opening the workbench on an empty workspace in the same run.
 */
import { readFile } from "node:fs/promises";
import { brotliCompressSync, constants } from "node:zlib";
import { chromium } from "@playwright/test";
import { deflateSync, gzipSync, strToU8 } from "fflate";
import lzString from "lz-string";
import { toBase64Url } from "../src/embed/share/base64url.js";
import { encodeShareLink, toShareFile, type ShareState } from "../src/embed/share/index.js";
import { pack } from "../src/embed/share/pack.js";
import { fixtureFiles, fixtureSession } from "../test/support/share-fixture.js";
import { chatSessionScript } from "./chat-session.js";
import { LAUNCH_ARGS, NAME_SHIM, round, serve, stop } from "./ui-stream.js";

function sizes(state: ShareState) {
  const packed = pack(state);
  const json = toShareFile(state);
  const ours = toBase64Url(deflateSync(packed, { level: 9 })).length;
  const result = {
    rawBytes: packed.length,
    ours,
    deflateJson: toBase64Url(deflateSync(strToU8(json), { level: 9 })).length,
    gzip: toBase64Url(gzipSync(packed, { level: 9 })).length,
    lzString: lzString.compressToEncodedURIComponent(json).length,
    brotliNodeOnly: toBase64Url(brotliCompressSync(packed, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })).length,
  };
  const browserUsable = { ours: result.ours, deflateJson: result.deflateJson, gzip: result.gzip, lzString: result.lzString };
  const winner = Object.entries(browserUsable).sort((a, b) => a[1] - b[1])[0]![0];
  return { ...result, oursVsLzString: round(result.ours / result.lzString), winnerInBrowsers: winner };
}

/** A script carried as a share: its text as a file (what a replayable share of it holds). */
async function scriptShare(name: string, text: string, files: Record<string, string | Uint8Array> = {}): Promise<ShareState> {
  return { name, files: { ...files, "session.script.json": text } };
}

async function openTimes(link: string, url: string) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    await page.addInitScript(NAME_SHIM);
    // Warm the server and the browser's cache once, so both timings below load the same cached code.
    await page.goto(`${url}/?workspace=bench-warm&memory=1`);
    await page.locator(".file-tree").waitFor();
    let start = performance.now();
    await page.goto(`${url}/?workspace=bench-empty-${Date.now().toString(36)}`);
    await page.locator(".file-tree").waitFor();
    const emptyMs = performance.now() - start;
    start = performance.now();
    await page.goto(link.replace(/^https?:\/\/[^/#]+\/?/, `${url}/`));
    await page
      .locator('.file-tree li[data-path="/workspace/src/m19.ts"], .file-tree li[data-path="/workspace/src"]')
      .first()
      .waitFor({ timeout: 60_000 });
    const linkMs = performance.now() - start;
    return {
      openLinkToFilesShownMs: round(linkMs),
      reference: { openEmptyWorkspaceMs: round(emptyMs) },
      ratioToEmpty: round(linkMs / emptyMs),
    };
  } finally {
    await browser.close();
  }
}

export async function benchShareLink() {
  const files = fixtureFiles(20);
  const demo: ShareState = { name: "demo", files, session: fixtureSession(30, files) };
  const link = await encodeShareLink(demo, "https://workbench.example/");
  const demoScript = await readFile("src/page/demo/demo-script.json", "utf8");
  const shares = {
    "20 files + 30-call session": sizes(demo),
    "demo-script.json": sizes(await scriptShare("demo script", demoScript)),
    "chat bench script (200 steps, 1,000 calls)": sizes(await scriptShare("long", JSON.stringify(chatSessionScript()))),
  };
  const { url, server } = await serve();
  try {
    return { benchmark: "share-link", linkChars: link.length, sizesInChars: shares, open: await openTimes(link, url) };
  } finally {
    stop(server);
  }
}
