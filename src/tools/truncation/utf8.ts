/**
 * UTF-8 byte counting without allocating. It counts exactly what TextEncoder (and node's Buffer) would
 * produce: a surrogate pair is 4 bytes and a lone surrogate becomes U+FFFD, 3 bytes. Counting the pieces
 * of a text gives the same total as counting the whole only if no piece boundary splits a surrogate pair,
 * which is why the streaming sink never lets one through (see `isHighSurrogate`).
 */

export function utf8Length(text: string): number {
  let bytes = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && i + 1 < length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** How many "\n" a text holds, without splitting it into lines. */
export function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
