const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A file's content as a share holds it: text when the bytes are UTF-8 with no NUL (text then round-trips
 * exactly and compresses as text), the bytes themselves otherwise.
 */
export function shareContent(bytes: Uint8Array): string | Uint8Array {
  if (bytes.includes(0)) return bytes;
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes;
  }
}
