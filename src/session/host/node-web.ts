/**
 * Web access where nothing stands between us and the site (Node: the CLI, tests): a plain fetch that
 * follows redirects itself, so it can count them (at most 10), refuse a redirect to anything but http(s),
 * and report the final URL. No cookie jar exists, so nothing is sent but the request's own headers.
 */
import { WebAccessError, type WebAccess, type WebRequest, type WebResponse } from "../../tools/ports/web-access.js";
import { errorMessage } from "../../base/error-message.js";

const MAX_REDIRECTS = 10;

/** Headers that may follow a redirect to another origin; anything else (a key) stays with the first. */
const PORTABLE = new Set(["accept", "accept-language", "user-agent"]);

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? errorMessage(error);
}

export interface NodeWebOptions {
  exaUrl?: string;
  fetchImpl?: typeof fetch;
}

export function nodeWebAccess(options: NodeWebOptions = {}): WebAccess {
  const fetchImpl = options.fetchImpl ?? fetch;
  return {
    fromThisMachine: true,
    ...(options.exaUrl ? { exaUrl: options.exaUrl } : {}),
    async fetch(request: WebRequest): Promise<WebResponse> {
      let url = request.url;
      let method = request.method ?? "GET";
      let body = request.body;
      let headers = { ...request.headers };
      for (let redirects = 0; ; redirects++) {
        let response: Response;
        const init: RequestInit = { method, headers, body, redirect: "manual", credentials: "omit", signal: request.signal };
        try {
          response = await fetchImpl(url, init).catch((error: unknown) => {
            // A kept-alive connection the server closed while we were busy (a long conversion) fails at
            // once with a reset; a GET is safe to send again, on a fresh connection.
            if (method === "GET" && !request.signal.aborted && describe(error) === "ECONNRESET") return fetchImpl(url, init);
            throw error;
          });
        } catch (error) {
          if (request.signal.aborted) throw request.signal.reason ?? error;
          throw new WebAccessError(
            `Could not reach ${new URL(url).host} (${describe(error)}): check the address and that the site is up and reachable from here.`,
          );
        }
        const location = response.headers.get("location");
        if (response.status < 300 || response.status >= 400 || response.status === 304 || !location)
          return { response, url, via: "direct" };
        await response.body?.cancel().catch(() => {});
        if (redirects >= MAX_REDIRECTS) {
          throw new WebAccessError(
            `Too many redirects: ${request.url} redirected more than ${MAX_REDIRECTS} times (last to ${url}). Fetch the final address directly, if there is one.`,
          );
        }
        const next = new URL(location, url);
        if (next.protocol !== "http:" && next.protocol !== "https:") {
          throw new WebAccessError(`${url} redirected to ${next.protocol} (${next.href}), which is not fetched: only http and https are.`);
        }
        if (next.origin !== new URL(url).origin)
          headers = Object.fromEntries(Object.entries(headers).filter(([name]) => PORTABLE.has(name.toLowerCase())));
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
        }
        url = next.href;
      }
    },
  };
}
