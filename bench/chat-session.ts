/**
 * A long scripted session in the built page (issue 14): 200 steps with 1,000 real tool calls (five a step) on the
 * embedded runtime (write, read, list, glob, grep, bash echo), some reasoning and text per step, replayed
 * and a final text step, through the page's "Session ▾ → Replay a script…" file input at the speed the page replays files (1, the
 * only one it offers). While it plays: rAF frame lengths (longest, p99, frames over 50 ms), long tasks,
 * the main isolate's JS heap (CDP Performance.getMetrics JSHeapUsedSize, sampled every second: the peak),
 * the total time, and the DOM node count at the end; the reference is the same page idle for as long.
 * Reports only: the figures go to the JSON, nothing here fails on them.
 *
 * CHAT_BENCH_PROFILE=1 also records a CDP CPU profile of the run and reports the functions with the most
 * self time (to find what a slow frame spends its time on). CHAT_BENCH_HEAP=1 runs CDP's sampling heap profiler
 * through the session and reports the functions whose allocations are still alive at the end (what holds memory).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import type { Script } from "../src/session/provider/scripted.js";
import type { ScriptFile } from "../src/page/script-file.js";
import { LAUNCH_ARGS, NAME_SHIM, frameSummary, round, serve, startRecording, stop, stopRecording } from "./ui-stream.js";

const STEPS = 200;
const CALLS_PER_STEP = 5;
const FINAL_TEXT = "All two hundred steps are done: the bench folder holds the files, and every tool answered.";

function words(count: number, seed: number): string {
  const vocabulary = [
    "the",
    "file",
    "reads",
    "back",
    "as",
    "written",
    "so",
    "next",
    "step",
    "lists",
    "folder",
    "and",
    "greps",
    "for",
    "marker",
    "counts",
    "lines",
    "checks",
    "output",
    "then",
    "moves",
    "on",
  ];
  return Array.from({ length: count }, (_, i) => vocabulary[(seed * 7 + i * 3) % vocabulary.length]).join(" ");
}

/** Step n's five calls: a write of its own file, a read of the previous one, and three cheap look-ups. */
type ScriptCall = NonNullable<Script["steps"][number]["toolCalls"]>[number];

function callsOf(n: number): ScriptCall[] {
  const file = (k: number) => `bench/s${String(k).padStart(3, "0")}.txt`;
  const lookups: ScriptCall[] = [
    { tool: "list", input: { path: "bench" } },
    { tool: "glob", input: { pattern: "bench/*.txt" } },
    { tool: "grep", input: { pattern: `marker ${n - 1}$`, path: "bench" } },
    { tool: "bash", input: { command: `echo step ${n}`, description: `Echoes step ${n}` } },
  ];
  // The write and the read may run together: read the previous step's file, which is there already.
  const second: ScriptCall =
    n === 0
      ? { tool: "bash", input: { command: "echo start", description: "Echoes the start" } }
      : { tool: "read", input: { filePath: file(n - 1) } };
  const calls: ScriptCall[] = [{ tool: "write", input: { filePath: file(n), content: `step ${n}\nmarker ${n}\n` } }, second];
  for (let i = 0; calls.length < CALLS_PER_STEP; i++) calls.push(lookups[(n + i) % lookups.length]!);
  return calls;
}

export function chatSessionScript(): ScriptFile {
  const steps: Script["steps"] = [];
  for (let n = 0; n < STEPS; n++) {
    steps.push({
      reasoning: `Step ${n}: ${words(18, n)}.`,
      text: `Step **${n}** of the bench: ${words(24, n + 1)}.`,
      toolCalls: callsOf(n),
    });
  }
  // The model's last answer: a final text after the tools' results, as a session ends.
  steps.push({ reasoning: "Everything ran; summing up.", text: FINAL_TEXT });
  return { version: 1, prompt: "Run the two-hundred-step bench session.", steps };
}

async function heapUsed(cdp: CDPSession): Promise<{ heap: number; nodes: number }> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
  return { heap: value("JSHeapUsedSize"), nodes: value("Nodes") };
}

const MB = 1024 * 1024;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a CPU profile (samples are at a fixed interval). */
function topSelfTime(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }, limit = 25) {
  const byNode = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0;
    if (us === 0) continue;
    const frame = node.callFrame;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\//, "")}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([fn, us]) => ({ fn, selfMs: round(us / 1000) }));
}

interface HeapNode {
  callFrame: ProfileNode["callFrame"];
  selfSize: number;
  children: HeapNode[];
}

/** The functions whose sampled allocations are still alive, by bytes (the sampling profile keeps only live objects). */
function topLiveAllocations(head: HeapNode, limit = 25) {
  const byFunction = new Map<string, number>();
  const walk = (node: HeapNode) => {
    if (node.selfSize > 0) {
      const frame = node.callFrame;
      const key = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\//, "")}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    }
    node.children.forEach(walk);
  };
  walk(head);
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([fn, bytes]) => ({ fn, liveKiB: round(bytes / 1024) }));
}

async function replay(page: Page, path: string) {
  await page.getByTestId("session-menu").click();
  const choosing = page.waitForEvent("filechooser");
  await page.getByTestId("menu-replay-script").click();
  await (await choosing).setFiles(path);
}

export async function benchChatSession() {
  const profile = process.env.CHAT_BENCH_PROFILE === "1";
  const heapProfile = process.env.CHAT_BENCH_HEAP === "1";
  const dir = await mkdtemp(join(tmpdir(), "chat-bench-"));
  const scriptPath = join(dir, "bench-session.script.json");
  const script = chatSessionScript();
  await writeFile(scriptPath, JSON.stringify(script));
  const toolCalls = script.steps.reduce((sum, step) => sum + (step.toolCalls?.length ?? 0), 0);

  const { url, server } = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(NAME_SHIM);
    await page.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
    await page.goto(`${url}/?workspace=bench-chat-${Date.now().toString(36)}&memory=1`);
    await page.locator("[data-testid=runtime-status][data-phase=ready]").waitFor({ timeout: 60_000 });
    await page.getByTestId("tab-chat").click();
    await page.locator("[data-testid=session-menu]:not([disabled])").waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    if (profile) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
    }
    const baseline = await heapUsed(cdp);
    if (heapProfile) {
      await cdp.send("HeapProfiler.enable");
      await cdp.send("HeapProfiler.startSampling", { samplingInterval: 16384 });
    }

    // Samples the heap every second while the session plays, and notes any permission prompt (none should ask).
    const heapSamples: number[] = [];
    let prompts = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const sample = await heapUsed(cdp).catch(() => undefined);
        if (sample) heapSamples.push(sample.heap);
        prompts = Math.max(
          prompts,
          await page
            .locator("[data-testid=permission-prompt]")
            .count()
            .catch(() => 0),
        );
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();

    await startRecording(page);
    if (profile) await cdp.send("Profiler.start");
    const started = Date.now();
    await replay(page, scriptPath);
    const pane = page.getByTestId("chat-pane");
    await pane.getByTestId("chat-status").and(page.locator("[data-status=busy]")).waitFor({ timeout: 60_000 });
    // Waits for the final text with the chat idle, noting progress; past the cap it stops the chat and reports what it reached.
    const capMs = Number(process.env.CHAT_BENCH_MAX_MS ?? 20 * 60_000);
    let finished = false;
    let progress = { assistantMessages: 0, toolParts: 0 };
    while (Date.now() - started < capMs) {
      const state = await page.evaluate((final) => {
        const pane = document.querySelector("[data-testid=chat-pane]");
        const status = pane?.querySelector<HTMLElement>("[data-testid=chat-status]")?.dataset.status;
        const messages = pane?.querySelectorAll("[data-testid=assistant-message]") ?? [];
        const done = status === "idle" && (messages[messages.length - 1]?.textContent ?? "").includes(final);
        return { done, assistantMessages: messages.length, toolParts: pane?.querySelectorAll("[data-testid=tool-part]").length ?? 0 };
      }, FINAL_TEXT);
      progress = { assistantMessages: state.assistantMessages, toolParts: state.toolParts };
      if (state.done) {
        finished = true;
        break;
      }
      if (process.env.CHAT_BENCH_VERBOSE)
        console.error(
          `${Math.round((Date.now() - started) / 1000)} s: ${state.assistantMessages} assistant messages, ${state.toolParts} tool parts`,
        );
      await page.waitForTimeout(500);
    }
    const durationMs = Date.now() - started;
    const cpuProfile = profile ? (await cdp.send("Profiler.stop")).profile : undefined;
    const recorded = await stopRecording(page);
    sampling = false;
    if (!finished) {
      await page.getByTestId("tab-chat").focus();
      await page.keyboard.press("Escape");
    }
    await sampler;
    // Only what is still reachable counts as held (the plain run measures the heap as it is).
    if (heapProfile) await cdp.send("HeapProfiler.collectGarbage").catch(() => undefined);
    const end = await heapUsed(cdp);
    const liveAllocations = heapProfile
      ? topLiveAllocations((await cdp.send("HeapProfiler.stopSampling")).profile.head as HeapNode)
      : undefined;
    const counts = await page.evaluate(() => ({
      elements: document.getElementsByTagName("*").length,
      assistantMessages: document.querySelectorAll("[data-testid=chat-pane] [data-testid=assistant-message]").length,
      toolParts: document.querySelectorAll("[data-testid=chat-pane] [data-testid=tool-part]").length,
      completedCards: document.querySelectorAll("[data-testid=chat-pane] [data-testid=call-card][data-state=completed]").length,
      errorCards: document.querySelectorAll("[data-testid=chat-pane] [data-testid=call-card][data-state=error]").length,
      // The transcript draws only what is near the view: the session's own count says how many calls ran.
      callsInSession: Number(/\d+/.exec(document.querySelector("[data-testid=session-count]")?.textContent ?? "")?.[0] ?? NaN),
    }));

    // The reference: the same page, idle, for as long as the session took.
    await startRecording(page);
    await page.waitForTimeout(durationMs);
    const idle = frameSummary(await stopRecording(page), durationMs);
    await context.close();

    const run = frameSummary(recorded, durationMs);
    const peak = Math.max(baseline.heap, ...heapSamples, end.heap);
    return {
      benchmark: "chat-session",
      reference: "longest frame of the same page left idle for as long as the session, same run",
      browser: `chromium ${browser.version()}`,
      script: { steps: script.steps.length, toolCalls, speed: 1 },
      session: {
        finished,
        reachedWhenMeasured: progress,
        ...run,
        heap: {
          note: "main isolate only (the runtime's workers are not counted)",
          beforeMiB: round(baseline.heap / MB),
          peakMiB: round(peak / MB),
          endMiB: round(end.heap / MB),
          samples: heapSamples.length,
        },
        domNodesAtEnd: end.nodes,
        elementsAtEnd: counts.elements,
        callsInSession: counts.callsInSession,
        // What the transcript has drawn at the end (it draws only the messages near the view).
        drawnAssistantMessages: counts.assistantMessages,
        drawnToolParts: counts.toolParts,
        completedCards: counts.completedCards,
        errorCards: counts.errorCards,
        permissionPromptsSeen: prompts,
      },
      idle,
      ratioLongestFrameToIdle: round(run.longestFrameMs / Math.max(1, idle.longestFrameMs)),
      ...(cpuProfile ? { profileTopSelfTime: topSelfTime(cpuProfile) } : {}),
      ...(liveAllocations ? { liveAllocationsAtEnd: liveAllocations } : {}),
    };
  } finally {
    await browser.close();
    stop(server);
  }
}

// `node --import ./src/cli/register.mjs bench/chat-session.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchChatSession(), null, 2));
