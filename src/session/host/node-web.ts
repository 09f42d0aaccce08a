/**
 * Web access where nothing stands between us and the site (Node: the CLI, tests): a plain fetch that
 * follows redirects itself, so it can count them (at most 10), refuse a redirect to anything but http(s),
 * and report the final URL. No cookie jar exists, so nothing is sent but the request's own headers.
 *
 * A request that starts at a public host stays public: a redirect to this machine or a private network
 * (by address or by name) is refused, and so is a DNS answer that is internal (./public-connect.ts). A
 * request that starts internal was asked for as such (webfetch's `(internal)` pattern; a configured
 * search endpoint is the person's own) and may stay there.
 */
import type { LookupFunction } from "node:net";
import type { Dispatcher } from "undici";
import { WebAccessError, type WebAccess, type WebRequest, type WebResponse } from "../../tools/ports/web-access.js";
import { internalAddress, internalIp } from "../../tools/web/internal-address.js";
import { errorMessage } from "../../base/error-message.js";
import type { AddressJudge } from "./public-connect.js";

const MAX_REDIRECTS = 10;

/** Headers that may follow a redirect to another origin; anything else (a key) stays with the first. */
const PORTABLE = new Set(["accept", "accept-language", "user-agent"]);

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? errorMessage(error);
}

type NodeFetch = (url: string, init: RequestInit & { dispatcher?: Dispatcher }) => Promise<Response>;

export interface NodeWebOptions {
  exaUrl?: string;
  fetchImpl?: NodeFetch;
  /** How host names are resolved (default dns.lookup; tests answer with loopback addresses). */
  lookup?: LookupFunction;
  /** Which addresses are internal (default: loopback, private, link-local; tests call one loopback address public). */
  internalIp?: AddressJudge;
}

/** Why the URL's host is internal: its name, or the address written in it, as the judge sees it. */
function internalHost(url: URL, judge: AddressJudge): string | null {
  const host = url.hostname;
  const literal = host.startsWith("[") ? host.slice(1, -1) : /^[\d.]+$/.test(host) ? host : null;
  return literal !== null ? judge(literal) : internalAddress(url);
}

/**
 * undici and the public-only connections load with the first fetch: the page's bundle holds this file (a
 * ToolSession's default web) but never fetches through it, and undici reads node's `process` as it loads.
 */
let connections: Promise<typeof import("./public-connect.js") & { undiciFetch: NodeFetch }> | undefined;
function loadConnections() {
  connections ??= Promise.all([import("undici"), import("./public-connect.js")]).then(([undici, connect]) => ({
    ...connect,
    // undici's own fetch, so its dispatcher (the public-only connections) is the one it understands.
    undiciFetch: undici.fetch as unknown as NodeFetch,
  }));
  return connections;
}

export function nodeWebAccess(options: NodeWebOptions = {}): WebAccess {
  const judge = options.internalIp ?? internalIp;
  let publicAgent: Dispatcher | undefined;
  return {
    fromThisMachine: true,
    ...(options.exaUrl ? { exaUrl: options.exaUrl } : {}),
    async fetch(request: WebRequest): Promise<WebResponse> {
      let url = request.url;
      let method = request.method ?? "GET";
      let body = request.body;
      let headers = { ...request.headers };
      const publicOnly = internalHost(new URL(url), judge) === null;
      const { undiciFetch, publicOnlyAgent, InternalAnswerError } = await loadConnections();
      const fetchImpl: NodeFetch = options.fetchImpl ?? undiciFetch;
      if (publicOnly) publicAgent ??= publicOnlyAgent(judge, options.lookup);
      for (let redirects = 0; ; redirects++) {
        let response: Response;
        const init = {
          method,
          headers,
          body,
          redirect: "manual" as const,
          credentials: "omit" as const,
          signal: request.signal,
          ...(publicOnly ? { dispatcher: publicAgent } : {}),
        };
        try {
          response = await fetchImpl(url, init).catch((error: unknown) => {
            // A kept-alive connection the server closed while we were busy (a long conversion) fails at
            // once with a reset; a GET is safe to send again, on a fresh connection.
            if (method === "GET" && !request.signal.aborted && describe(error) === "ECONNRESET") return fetchImpl(url, init);
            throw error;
          });
        } catch (error) {
          if (request.signal.aborted) throw request.signal.reason ?? error;
          const cause = (error as { cause?: unknown }).cause;
          if (cause instanceof InternalAnswerError) {
            throw new WebAccessError(
              `${cause.message}: webfetch does not follow a public address into this machine or a private network. If you mean to reach it, fetch http://${cause.address.includes(":") ? `[${cause.address}]` : cause.address}/ directly (that asks first).`,
            );
          }
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
        const inside = publicOnly ? internalHost(next, judge) : null;
        if (inside) {
          throw new WebAccessError(
            `${url} redirected to ${next.href}, ${inside}: a redirect from a public address is not followed into this machine or a private network. If you mean to reach it, fetch ${next.href} directly (that asks first).`,
          );
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
