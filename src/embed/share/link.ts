/**
 * Share links: the state packed (pack.ts), raw-deflated at level 9 and written as base64url after
 * `#share=1.` in the address. The hash never reaches a server, so a link needs no server of ours and
 * tells none of them what it holds. Decoding checks everything before it returns, and inflates with a
 * cap (inflate.ts): a link either opens whole or not at all.
 */
import { deflateSync } from "fflate";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { inflateCapped } from "./inflate.js";
import { MAX_INFLATED_BYTES, MAX_LINK_PAYLOAD_CHARS } from "./limits.js";
import { pack, unpack } from "./pack.js";
import { ShareError, type ShareResult, type ShareState } from "./state.js";
import { checkedState } from "./validate.js";

export const SHARE_HASH_KEY = "share";
const SHARE_VERSION = "1";

/** The payload alone (what follows `#share=`): version, a dot, the data. */
function encodePayload(state: ShareState): string {
  const safe = checkedState(state);
  return `${SHARE_VERSION}.${toBase64Url(deflateSync(pack(safe), { level: 9 }))}`;
}

/**
 * A link to `base` (the workbench's address) whose hash carries the state. Throws ShareError when the
 * state cannot be shared (a path the workbench would refuse, too many files).
 */
export async function encodeShareLink(state: ShareState, base: string): Promise<string> {
  const url = new URL(base);
  url.hash = "";
  return `${url.href}#${SHARE_HASH_KEY}=${encodePayload(state)}`;
}

/** The `share=` value in an address, a hash, or the payload itself. */
function payloadOf(urlOrHash: string): string | undefined {
  const text = urlOrHash.trim();
  const hashAt = text.indexOf("#");
  const hash = hashAt >= 0 ? text.slice(hashAt + 1) : text;
  if (/^\d+\./.test(hash)) return hash;
  const params = new URLSearchParams(hash);
  return params.get(SHARE_HASH_KEY) ?? undefined;
}

/** The state a link carries, or why it cannot be opened (the message is for the visitor). */
export async function decodeShareLink(urlOrHash: string): Promise<ShareResult> {
  try {
    return { ok: true, state: decodePayload(payloadOf(urlOrHash)) };
  } catch (error) {
    if (error instanceof ShareError) return { ok: false, error: `This share link cannot be opened: ${error.message}` };
    throw error;
  }
}

function decodePayload(payload: string | undefined): ShareState {
  if (payload === undefined) throw new ShareError("the address has no #share= part. Copy the whole link.");
  if (payload.length > MAX_LINK_PAYLOAD_CHARS)
    throw new ShareError(`it is longer than ${MAX_LINK_PAYLOAD_CHARS} characters; a share that big travels as a .workbench.json file.`);
  const dot = payload.indexOf(".");
  const version = dot < 0 ? "" : payload.slice(0, dot);
  if (version !== SHARE_VERSION) {
    throw new ShareError(
      dot < 0
        ? "it has no version (it should start #share=1.): it was cut or edited."
        : `it is version ${version}, which this workbench does not read (it reads ${SHARE_VERSION}). Open it in a newer workbench.`,
    );
  }
  const data = fromBase64Url(payload.slice(dot + 1));
  if (!data.ok) throw new ShareError(data.error);
  return checkedState(unpack(inflateCapped(data.bytes, MAX_INFLATED_BYTES)));
}
