import { z } from "zod";
import description from "./preview.txt?raw";
import type { PreviewConsoleLine, PreviewError, PreviewSnapshot, PreviewSource } from "./ports/preview-access.js";
import { define, type FilePart } from "./tool.js";

const DEFAULT_WAIT_MS = 1_000;
const MAX_WAIT_MS = 10_000;

export const PreviewParameters = z.object({
  path: z.string().optional().describe("The HTML page to load, relative to the workspace folder (default: index.html)"),
  waitMs: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_MS)
    .optional()
    .describe(`How long to let the page run before reading it, in milliseconds (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS})`),
});

const NO_PREVIEW = "The preview needs the workbench page (a browser): it is not available here.";

function where(source: PreviewSource | undefined): string {
  return source ? ` (${source.path}:${source.line}:${source.column})` : "";
}

function consoleLine(line: PreviewConsoleLine): string {
  return `[${line.level}] ${line.text}${where(line.source)}`;
}

function errorBlock(error: PreviewError): string {
  // The browser's own message for an uncaught error already starts with "Uncaught".
  const label =
    error.kind === "rejection"
      ? "Unhandled rejection: "
      : error.kind === "build"
        ? "Build error: "
        : error.message.startsWith("Uncaught")
          ? ""
          : "Uncaught: ";
  const head = `${label}${error.message}${where(error.source)}`;
  // The stack's first line repeats the message.
  const frames = error.stack
    ?.split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8)
    .join("\n");
  return frames ? `${head}\n${frames}` : head;
}

/** The snapshot as sections a model reads at a glance; the visible text last, as it is the longest. */
export function formatSnapshot(snapshot: PreviewSnapshot): string {
  const parts = [`Page: ${snapshot.path}`, `Title: ${snapshot.title || "(none)"}`];
  parts.push(
    snapshot.errors.length ? `\nErrors (${snapshot.errors.length}):\n${snapshot.errors.map(errorBlock).join("\n")}` : "\nErrors: none",
  );
  parts.push(
    snapshot.console.length
      ? `\nConsole (${snapshot.console.length}):\n${snapshot.console.map(consoleLine).join("\n")}`
      : "\nConsole: empty",
  );
  if (snapshot.warnings.length) parts.push(`\nWarnings:\n${snapshot.warnings.join("\n")}`);
  if (snapshot.screenshot)
    parts.push(
      "dataUrl" in snapshot.screenshot
        ? "\nScreenshot: attached (the page as drawn, at most 1600x1200)"
        : `\nScreenshot: none (${snapshot.screenshot.missing})`,
    );
  parts.push(`\nVisible text:\n${snapshot.text.trim() || "(the page shows no text)"}`);
  return parts.join("\n");
}

export const PreviewTool = define("preview", {
  description: description.trim(),
  parameters: PreviewParameters,
  async execute(args, ctx) {
    const path = args.path ?? "index.html";
    await ctx.ask({ permission: "preview", patterns: [path], always: ["*"], metadata: {} });
    if (!ctx.preview) throw new Error(NO_PREVIEW);
    const snapshot = await ctx.preview.inspect(args.path, args.waitMs ?? DEFAULT_WAIT_MS, ctx.abort);
    const shot = snapshot.screenshot;
    const attachments: FilePart[] =
      shot && "dataUrl" in shot
        ? [
            {
              id: `${ctx.callID ?? "call"}-screenshot`,
              sessionID: ctx.sessionID,
              messageID: ctx.messageID,
              type: "file",
              mime: "image/png",
              url: shot.dataUrl,
              filename: "preview.png",
            },
          ]
        : [];
    return {
      title: snapshot.path,
      output: formatSnapshot(snapshot),
      metadata: {
        errors: snapshot.errors.length,
        console: snapshot.console.length,
        title: snapshot.title,
        screenshot: attachments.length > 0,
      },
      ...(attachments.length > 0 ? { attachments } : {}),
    };
  },
});
