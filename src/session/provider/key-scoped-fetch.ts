/**
 * A `fetch` for one provider that refuses to go anywhere but that provider's base URL origin, so the key
 * the provider package attaches to every request can never leave for another host (a redirecting base
 * URL typo, a model option pointing elsewhere, a package fetching a URL from a message). Refusal is an
 * error thrown before any byte is sent.
 *
 * Redirects are followed by hand (`redirect: "manual"`): fetch would otherwise carry the key's headers to
 * wherever the provider's answer points. A redirect within the base URL's origin is followed (at most
 * MAX_REDIRECTS); one to another origin is refused. A browser hides a manual redirect's target (an
 * "opaqueredirect" response), so there every redirect is refused.
 */
import { answerWithin, withIdleTimeout } from "./idle-timeout.js";
import { ProviderSetupError } from "./setup-error.js";

export type FetchFunction = typeof globalThis.fetch;

const MAX_REDIRECTS = 5;

function requestURL(input: Parameters<FetchFunction>[0]): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(unparseable URL)";
  }
}

export interface KeyScopedFetchOptions {
  providerID: string;
  baseURL: string;
  /** The fetch to call when allowed; the global one (looked up per call) by default. */
  fetch?: FetchFunction;
  /** Milliseconds before a whole request is abandoned (opencode.json `options.timeout`). */
  timeoutMs?: number;
  /** Milliseconds of silence inside a streamed answer before it is abandoned (`options.chunkTimeout`). */
  chunkTimeoutMs?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function keyScopedFetch(options: KeyScopedFetchOptions): FetchFunction {
  const allowed = new URL(options.baseURL).origin;
  const refuse = (target: string, redirected: boolean) =>
    new ProviderSetupError(
      "security",
      redirected
        ? `refused to follow ${options.providerID}'s redirect to ${target}: its key may only go to ${allowed}`
        : `refused to send ${options.providerID}'s request to ${target}: its key may only go to ${allowed}`,
      `Check provider.${options.providerID}.options.baseURL in opencode.json (use the URL the provider redirects to, if you trust it); requests for this provider only go to its base URL.`,
    );

  /** Sends the request, following redirects only while they stay on the allowed origin. */
  const follow = async (input: Parameters<FetchFunction>[0], init: RequestInit | undefined): Promise<Response> => {
    const inner = options.fetch ?? globalThis.fetch;
    let url = requestURL(input);
    let target: Parameters<FetchFunction>[0] = input;
    let call: RequestInit = { ...init, redirect: "manual" };
    for (let hop = 0; ; hop++) {
      const response = await inner(target, call);
      if (response.type === "opaqueredirect") throw refuse("another address (the browser hides where)", true);
      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
      const next = new URL(location, url).href;
      if (originOf(next) !== allowed) throw refuse(originOf(next), true);
      if (hop >= MAX_REDIRECTS) throw refuse(`${next} (more than ${MAX_REDIRECTS} redirects)`, true);
      if (typeof target !== "string" && !(target instanceof URL))
        throw refuse(`${next} (a redirected Request object cannot be replayed)`, true);
      await response.body?.cancel();
      // As fetch itself does: 303 (and 301/302 after a POST) turn into a GET without a body.
      const method = (call.method ?? "GET").toUpperCase();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
        const { body: _body, ...rest } = call;
        call = { ...rest, method: "GET" };
      }
      url = next;
      target = next;
    }
  };

  const scoped = (input: Parameters<FetchFunction>[0], init?: RequestInit): Promise<Response> => {
    const origin = originOf(requestURL(input));
    if (origin !== allowed) return Promise.reject(refuse(origin, false));
    let call = init;
    if (options.timeoutMs) {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      call = { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout };
    }
    const chunkTimeoutMs = options.chunkTimeoutMs;
    const streamed = chunkTimeoutMs
      ? answerWithin(chunkTimeoutMs, (signal) => follow(input, { ...call, signal }), call?.signal).then((response) =>
          withIdleTimeout(response, chunkTimeoutMs),
        )
      : follow(input, call);
    return streamed.catch((error: unknown) => {
      // A browser's "Failed to fetch" does not say where to; the advice depends on it (a local server?).
      if (error instanceof TypeError && !("url" in error)) Object.defineProperty(error, "url", { value: requestURL(input) });
      throw error;
    });
  };
  return scoped as FetchFunction;
}
