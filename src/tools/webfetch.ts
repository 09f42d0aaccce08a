import { z } from "zod";
import { MAX_RESPONSE_BYTES, readLimited, type WebAccess } from "./ports/web-access.js";
import { htmlToMarkdown, htmlToText } from "./web/html.js";
import { internalAddress } from "./web/internal-address.js";
import { INTERNAL } from "./permission/unresolved.js";
import description from "./webfetch.txt?raw";
import { define } from "./tool.js";

const DEFAULT_TIMEOUT_SECONDS = 30;
const MAX_TIMEOUT_SECONDS = 120;

const parameters = z.object({
  url: z.string().describe("The URL to fetch content from"),
  format: z
    .enum(["text", "markdown", "html"])
    .default("markdown")
    .describe("The format to return the content in (text, markdown, or html). Defaults to markdown."),
  timeout: z.number().positive().describe("Optional timeout in seconds (max 120)").optional(),
});

const BROWSER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";

const ACCEPT: Record<z.infer<typeof parameters>["format"], string> = {
  markdown: "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1",
  text: "text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1",
  html: "text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, text/markdown;q=0.7, */*;q=0.1",
};

/** Images the model can look at; SVG is text (and may carry script), so it is returned as text. */
function isViewableImage(mime: string): boolean {
  return mime.startsWith("image/") && mime !== "image/svg+xml" && mime !== "image/vnd.fastbidsheet";
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

function charsetOf(contentType: string): string {
  const match = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1] ?? "utf-8";
}

function decode(bytes: Uint8Array, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

export const WebFetchTool = define("webfetch", {
  description: description.trim(),
  parameters,
  async execute(args, ctx) {
    if (!args.url.startsWith("http://") && !args.url.startsWith("https://")) throw new Error("URL must start with http:// or https://");
    let parsed: URL;
    try {
      parsed = new URL(args.url);
    } catch {
      throw new Error(`"${args.url}" is not a valid web address: check it for spaces or a missing part (like https://example.com/page).`);
    }
    // Fetch refuses them anyway; and a person approving "https://docs.example.com@evil.example/" may read the wrong host.
    if (parsed.username || parsed.password) {
      throw new Error(
        `The URL carries a user name or password before "@" (${parsed.host} is the real host): remove it; webfetch never sends credentials.`,
      );
    }
    const web: WebAccess | undefined = ctx.web;
    if (!web) throw new Error("This session has no web access, so webfetch cannot run here: use the page or the workbench CLI.");
    // From this machine, itself or a private network asks even under "webfetch": "allow" (./web/internal-address.ts).
    const internal = web.fromThisMachine ? internalAddress(parsed) : null;
    await ctx.ask({
      permission: "webfetch",
      patterns: internal ? [args.url, `${INTERNAL}${args.url}`] : [args.url],
      always: internal ? ["*", `${INTERNAL}${parsed.origin}/*`] : ["*"],
      metadata: { url: args.url, format: args.format, timeout: args.timeout, ...(internal ? { internal } : {}) },
    });

    const seconds = Math.min(args.timeout ?? DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
    const timer = new AbortController();
    const timeout = setTimeout(
      () =>
        timer.abort(
          new Error(
            `The request timed out after ${seconds} s: try again with a longer timeout (at most ${MAX_TIMEOUT_SECONDS} s), or another URL.`,
          ),
        ),
      seconds * 1000,
    );
    const signal = AbortSignal.any([ctx.abort, timer.signal]);
    const headers = { "User-Agent": BROWSER_AGENT, Accept: ACCEPT[args.format], "Accept-Language": "en-US,en;q=0.9" };
    try {
      let fetched = await web.fetch({ url: args.url, headers, signal });
      // A Cloudflare challenge is aimed at browsers pretending; saying who we are gets through more often.
      if (fetched.response.status === 403 && fetched.response.headers.get("cf-mitigated") === "challenge") {
        await fetched.response.body?.cancel().catch(() => {});
        fetched = await web.fetch({ url: args.url, headers: { ...headers, "User-Agent": "opencode" }, signal });
      }
      const { response } = fetched;
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`Request failed with status code: ${response.status}`);
      }
      const body = await readLimited(response, MAX_RESPONSE_BYTES);
      const contentType = response.headers.get("content-type") ?? "";
      const mime = contentType.split(";")[0]!.trim().toLowerCase();
      const title = `${args.url} (${contentType})`;
      const metadata = fetched.url !== args.url ? { url: fetched.url } : {};
      if (isViewableImage(mime)) {
        return {
          title,
          metadata,
          output: "Image fetched successfully",
          attachments: [
            {
              id: `${ctx.callID ?? "webfetch"}-image`,
              sessionID: ctx.sessionID,
              messageID: ctx.messageID,
              type: "file",
              mime,
              url: `data:${mime};base64,${base64(body)}`,
            },
          ],
        };
      }
      const content = decode(body, contentType);
      const html = mime === "text/html" || mime === "application/xhtml+xml";
      const converted =
        !html || args.format === "html" ? content : args.format === "markdown" ? await htmlToMarkdown(content) : await htmlToText(content);
      const output = fetched.url !== args.url ? `(redirected to ${fetched.url})\n\n${converted}` : converted;
      return { title, metadata, output };
    } catch (error) {
      // The timeout's own reason says what to do; Stop is the caller's abort and says so already.
      if (timer.signal.aborted && !ctx.abort.aborted) throw timer.signal.reason;
      throw error;
    } finally {
      clearTimeout(timeout);
    }
  },
});
