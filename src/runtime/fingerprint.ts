/**
 * What a file's content was, small enough to keep per session and per file: its size and a 64-bit hash of
 * its bytes. Two fingerprints differ when the bytes do (but for a 2^-64 chance), whatever the mtime says:
 * two writes within one clock tick, a clock that went back, or a file put back with its old mtime are all
 * seen. The hash is not cryptographic; it guards against accidents (a lost update), not against a forger,
 * and it runs the same everywhere (no secure context needed, as WebCrypto would be in the page).
 */
export interface Fingerprint {
  size: number;
  /** 16 hex digits. */
  hash: string;
}

/** Two independent 32-bit lanes (FNV-1a and a second multiplicative one), each finished by an avalanche. */
export function fingerprint(bytes: Uint8Array): Fingerprint {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x5bd1e995) ^ (b >>> 15);
  }
  return { size: bytes.length, hash: hex(avalanche(a ^ bytes.length)) + hex(avalanche(b)) };
}

export function sameContent(x: Fingerprint, y: Fingerprint): boolean {
  return x.size === y.size && x.hash === y.hash;
}

function avalanche(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}
