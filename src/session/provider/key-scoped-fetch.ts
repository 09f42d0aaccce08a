/**
 * A `fetch` for one provider that refuses to go anywhere but that provider's base URL origin, so the key
 * the provider package attaches to every request can never leave for another host (a redirecting base
 * URL typo, a model option pointing elsewhere, a package fetching a URL from a message). Refusal is an
 * error thrown before any byte is sent.
 */
import { withIdleTimeout } from "./idle-timeout.js";
import { ProviderSetupError } from "./setup-error.js";

export type FetchFunction = typeof globalThis.fetch;

function requestURL(input: Parameters<FetchFunction>[0]): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
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

export function keyScopedFetch(options: KeyScopedFetchOptions): FetchFunction {
  const allowed = new URL(options.baseURL).origin;
  const scoped = (input: Parameters<FetchFunction>[0], init?: RequestInit): Promise<Response> => {
    let origin: string;
    try {
      origin = new URL(requestURL(input)).origin;
    } catch {
      origin = "(unparseable URL)";
    }
    if (origin !== allowed) {
      return Promise.reject(
        new ProviderSetupError(
          "security",
          `refused to send ${options.providerID}'s request to ${origin}: its key may only go to ${allowed}`,
          `Check provider.${options.providerID}.options.baseURL in opencode.json; requests for this provider only go to its base URL.`,
        ),
      );
    }
    const inner = options.fetch ?? globalThis.fetch;
    let call = init;
    if (options.timeoutMs) {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      call = { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout };
    }
    const answered = inner(input, call);
    const streamed = options.chunkTimeoutMs ? answered.then((response) => withIdleTimeout(response, options.chunkTimeoutMs!)) : answered;
    return streamed.catch((error: unknown) => {
      // A browser's "Failed to fetch" does not say where to; the advice depends on it (a local server?).
      if (error instanceof TypeError && !("url" in error)) Object.defineProperty(error, "url", { value: requestURL(input) });
      throw error;
    });
  };
  return scoped as FetchFunction;
}
