/**
 * Web access from the page. A direct fetch first (no cookies: credentials "omit"); most sites send no CORS
 * headers, so the browser refuses to let the page read them. Then, when the person has set a fetch proxy,
 * the same request goes through it; when not, the error names the setting that fixes it.
 *
 * The proxy sees every URL fetched through it, so a proxy named by the workspace's opencode.json is used
 * only once the person trusts that workspace; the one in the person's own settings always is.
 */
import { WebAccessError, type WebAccess, type WebRequest, type WebResponse } from "../../tools/ports/web-access.js";

export interface FetchProxy {
  /** A URL template: `{url}` is replaced by the encoded target; without it, the encoded target is appended. */
  template: string;
  /** Where it came from, for messages. */
  source: "settings" | "opencode.json";
}

const PROXY_HELP =
  'Set a fetch proxy: in Settings → Web, or in opencode.json as "workbench": { "fetchProxy": "https://your-proxy.example/?url={url}" } (used once the workspace is trusted). Or run the workbench CLI, which fetches without this limit.';

/** Checks a template and says what is wrong with it; undefined when it is usable. */
export function proxyTemplateProblem(template: string): string | undefined {
  const sample = proxiedUrl(template, "https://example.com/");
  let parsed: URL;
  try {
    parsed = new URL(sample);
  } catch {
    return `"${template}" is not a URL: write a full address such as https://your-proxy.example/?url={url}`;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return `the fetch proxy must be an http or https address, not ${parsed.protocol}`;
  return undefined;
}

function proxiedUrl(template: string, target: string): string {
  const encoded = encodeURIComponent(target);
  return template.includes("{url}") ? template.split("{url}").join(encoded) : `${template}${encoded}`;
}

/** Browsers refuse to set these, and a non-safelisted header would add a preflight most sites fail. */
const PAGE_DROPS = new Set(["user-agent"]);

function pageHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => !PAGE_DROPS.has(name.toLowerCase())));
}

export interface PageWebOptions {
  /** The proxy in force now (read per request: changing the setting takes effect at once). */
  proxy(): FetchProxy | undefined;
  /** A proxy the workspace names but that is held back (untrusted workspace), for the error to say so. */
  heldProxy?: () => string | undefined;
  fetchImpl?: typeof fetch;
  online?: () => boolean;
  exaUrl?: string;
}

export function pageWebAccess(options: PageWebOptions): WebAccess {
  const fetchImpl = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const online = options.online ?? (() => typeof navigator === "undefined" || navigator.onLine !== false);
  return {
    ...(options.exaUrl ? { exaUrl: options.exaUrl } : {}),
    async fetch(request: WebRequest): Promise<WebResponse> {
      const init: RequestInit = {
        method: request.method ?? "GET",
        headers: pageHeaders(request.headers),
        body: request.body,
        credentials: "omit",
        redirect: "follow",
        signal: request.signal,
      };
      try {
        const response = await fetchImpl(request.url, init);
        return { response, url: response.url || request.url, via: "direct" };
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason ?? error;
        if (!online()) throw new WebAccessError(`The browser is offline, so ${request.url} could not be fetched: connect and try again.`);
        const proxy = options.proxy();
        const host = new URL(request.url).host;
        if (!proxy) {
          const held = options.heldProxy?.();
          const why = `${host} could not be read from the page: the site does not allow other sites' pages to read it (CORS), or it is unreachable.`;
          if (held)
            throw new WebAccessError(
              `${why} This workspace's opencode.json names a fetch proxy (${held}), but it is used only once you trust the workspace: it would see every URL fetched. Trust the workspace, or set your own proxy in Settings → Web.`,
            );
          throw new WebAccessError(`${why} ${PROXY_HELP}`);
        }
        const via = proxiedUrl(proxy.template, request.url);
        try {
          const response = await fetchImpl(via, init);
          return { response, url: request.url, via: "proxy" };
        } catch (proxyError) {
          if (request.signal.aborted) throw request.signal.reason ?? proxyError;
          throw new WebAccessError(
            `${host} refused the page's direct request, and the fetch proxy from ${proxy.source} (${new URL(via).host}) could not be reached either, or does not allow this page (CORS): check the proxy address in ${proxy.source === "settings" ? "Settings → Web" : "opencode.json (workbench.fetchProxy)"}.`,
          );
        }
      }
    },
  };
}
