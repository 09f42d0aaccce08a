/** base64url without padding (RFC 4648 §5), strict on the way in: one wrong character is an error, not a skipped byte. */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  const out: string[] = [];
  let chunk = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    chunk += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    if (b !== undefined) chunk += ALPHABET[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    if (c !== undefined) chunk += ALPHABET[c & 63]!;
    if (chunk.length > 8192) {
      out.push(chunk);
      chunk = "";
    }
  }
  out.push(chunk);
  return out.join("");
}

/** The bytes, or a message saying where the text stops being base64url. */
export function fromBase64Url(text: string): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  if (text.length % 4 === 1)
    return { ok: false, error: "its data has a length no base64url text can have: the link was cut short or edited." };
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? VALUES[code]! : -1;
    if (digit < 0) {
      return {
        ok: false,
        error: `its data has a character that is not base64url at position ${i} (${JSON.stringify(text[i])}): the link was damaged when it was copied (a chat app may have changed it).`,
      };
    }
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return { ok: true, bytes: out.subarray(0, at) };
}
