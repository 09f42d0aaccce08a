/**
 * How tools reach the web (webfetch, websearch, codesearch). The tools only describe a request; the
 * session layer decides how it travels: on Node a plain fetch that follows redirects itself, in the page
 * a direct fetch first and then, when the site refuses cross-origin reads, the person's fetch proxy.
 * Cookies and credentials are never sent either way.
 */

export interface WebRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Stop (or a timeout): the request and any body still being read end at once. */
  signal: AbortSignal;
}

export interface WebResponse {
  response: Response;
  /** The URL the body came from after redirects (the requested URL when a proxy fetched it). */
  url: string;
  via: "direct" | "proxy";
}

export interface WebAccess {
  /** Resolves with the response of any status; rejects with a WebAccessError saying what to do next. */
  fetch(request: WebRequest): Promise<WebResponse>;
  /** Where websearch and codesearch send their queries (Exa's MCP endpoint unless configured). */
  readonly exaUrl?: string;
  /**
   * Whether requests leave from this machine itself (Node's fetch, the CLI), where loopback and private
   * addresses are services that trust it: webfetch then asks before reaching them (./internal-address.ts).
   * The page's fetch goes through the browser, which keeps its own rules for them.
   */
  readonly fromThisMachine?: boolean;
}

/** A request that could not be made at all (refused, unreachable, too many redirects), with the fix in its message. */
export class WebAccessError extends Error {
  override readonly name = "WebAccessError";
}

export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
  constructor() {
    super("Response too large (exceeds 5MB limit)");
  }
}

/**
 * The body, refused as soon as it passes `limit` bytes: a declared length is checked before reading, and
 * the running count while reading, so a 6 GB body costs at most `limit` bytes of memory.
 */
export async function readLimited(response: Response, limit: number = MAX_RESPONSE_BYTES): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new ResponseTooLargeError();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new ResponseTooLargeError();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
