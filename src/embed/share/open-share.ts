/**
 * Opening a share in the page: from the address (`#share=...` or `#from=<url of a .workbench.json>`) or a
 * dropped or picked file. A share always opens in a new workspace named for it, never the visitor's own:
 * its files are written there first (bulk, checked), its session becomes that workspace's current one,
 * and the page then goes to `?workspace=<name>&shared=1` (the hash dropped, so a reload does not open it
 * twice). Anything refused writes nothing.
 */
import { openBrowserSessionStore } from "../../page/storage/indexeddb-session-store.js";
import { importSession } from "../../session/record/session-json.js";
import { seedWorkspace } from "../../workspace/browser-platform.js";
import { fromShareFile } from "./file-form.js";
import { MAX_SHARE_FILE_BYTES } from "./limits.js";
import { decodeShareLink, SHARE_HASH_KEY } from "./link.js";
import type { ShareResult, ShareState } from "./state.js";
import { filesOf } from "./validate.js";
import { errorMessage } from "../../base/error-message.js";

export type ShareSource = { kind: "link"; hash: string } | { kind: "from"; url: string };

/** What the address asks to open, if anything. */
export function shareSourceOf(hash: string): ShareSource | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (params.has(SHARE_HASH_KEY)) return { kind: "link", hash };
  const from = params.get("from");
  return from ? { kind: "from", url: from } : undefined;
}

/** How long a share file may take to arrive, whole: a site that stalls must not hold the page for ever. */
const SHARE_FETCH_TIMEOUT_MS = 60_000;

/**
 * A `.workbench.json` fetched from another site: with CORS and without credentials (no cookies, no
 * referrer), over http(s) only, read up to the size a share file may have, within the time it may take.
 */

export async function fetchShareFile(address: string, base: string, options: { timeoutMs?: number } = {}): Promise<ShareResult> {
  let url: URL;
  try {
    url = new URL(address, base);
  } catch {
    return { ok: false, error: `The share file's address "${address}" is not a URL.` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, error: `The share file must be fetched over http or https, not ${url.protocol}` };
  const timeoutMs = options.timeoutMs ?? SHARE_FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const stalled = (): ShareResult => ({
    ok: false,
    error: `The share file at ${url.href} did not finish arriving within ${Math.round(timeoutMs / 1000)} s: its site may be down or slow. Try again later, or download it and drop it on the page.`,
  });
  try {
    return await readShareFile(url, signal);
  } catch (error) {
    if (signal.aborted) return stalled();
    throw error;
  }
}

async function readShareFile(url: URL, signal: AbortSignal): Promise<ShareResult> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "omit", mode: "cors", referrerPolicy: "no-referrer", cache: "no-store", signal });
  } catch (error) {
    if (signal.aborted) throw error;
    return {
      ok: false,
      error: `The share file at ${url.href} could not be fetched (${errorMessage(error)}). Its site must allow it with Access-Control-Allow-Origin; or download it and drop it on the page.`,
    };
  }
  if (!response.ok) return { ok: false, error: `The share file at ${url.href} answered ${response.status} ${response.statusText}.` };
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > MAX_SHARE_FILE_BYTES)
    return {
      ok: false,
      error: `The share file at ${url.href} is ${declared} bytes, more than a share file may be (${MAX_SHARE_FILE_BYTES}).`,
    };
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_SHARE_FILE_BYTES) {
      await reader.cancel();
      return { ok: false, error: `The share file at ${url.href} is larger than a share file may be (${MAX_SHARE_FILE_BYTES} bytes).` };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return fromShareFile(bytes, `The share file at ${url.href}`);
}

/** The share the address names, decoded and checked. */
export function readShareFromAddress(source: ShareSource, base: string): Promise<ShareResult> {
  return source.kind === "link" ? decodeShareLink(source.hash) : fetchShareFile(source.url, base);
}

/** A workspace name of its own for a share: its name made URL-safe, and a random part so no two meet. */
function sharedWorkspaceName(state: ShareState): string {
  const slug =
    (state.name ?? "share")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 30) || "share";
  const random = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(36).padStart(2, "0"))
    .join("")
    .slice(0, 6);
  return `shared-${slug}-${random}`;
}

/**
 * Writes the share into a new workspace and returns the address that opens it. The session gets new ids
 * (session-json's import) and becomes the workspace's current session.
 */
export async function openShareInNewWorkspace(
  state: ShareState,
  at: { origin: string; pathname: string },
  onProgress?: (written: number, total: number) => void,
): Promise<string> {
  const name = sharedWorkspaceName(state);
  const record = state.session ? importSession(JSON.stringify(state.session)) : undefined;
  await seedWorkspace(name, filesOf(state), { onProgress });
  if (record) {
    const { store } = await openBrowserSessionStore(name);
    await store.save({ ...record, title: record.title || state.name || "Shared session" });
    await store.setCurrent(record.id);
  }
  const url = new URL(at.pathname, at.origin);
  url.searchParams.set("workspace", name);
  url.searchParams.set("shared", "1");
  // A share that opens on the preview: the page brings the Preview tab forward on that page.
  if (state.view?.panes?.[0] === "preview") url.searchParams.set("preview", state.view.preview ?? "/index.html");
  return url.href;
}
