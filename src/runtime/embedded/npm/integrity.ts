import { NpmError } from "./errors.js";

/** The strongest algorithm first: npm checks the best hash an integrity string names. */
const algorithms = [
  ["sha512", "SHA-512"],
  ["sha384", "SHA-384"],
  ["sha256", "SHA-256"],
  ["sha1", "SHA-1"],
] as const;

function base64(bytes: ArrayBuffer): string {
  let binary = "";
  const view = new Uint8Array(bytes);
  for (let i = 0; i < view.length; i++) binary += String.fromCharCode(view[i]!);
  return btoa(binary);
}

function hexToBase64(hex: string): string {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return base64(bytes.buffer);
}

/** An SRI string for `bytes` (sha512, what npm writes into package-lock.json). */
export async function sha512Integrity(bytes: Uint8Array): Promise<string> {
  return `sha512-${base64(await crypto.subtle.digest("SHA-512", bytes as Uint8Array<ArrayBuffer>))}`;
}

/** The integrity to check a tarball against: the SRI string, or else the packument's sha1 `shasum`. */
export function expectedIntegrity(integrity: string | undefined, shasum: string | undefined): string | undefined {
  if (integrity) return integrity;
  return shasum && /^[0-9a-f]{40}$/i.test(shasum) ? `sha1-${hexToBase64(shasum)}` : undefined;
}

/**
 * Checks `bytes` against an SRI string (several hashes may be listed; the strongest is checked, as
 * ssri does) with Web Crypto. Throws EINTEGRITY, worded as npm's, when it does not match.
 */
export async function verifyIntegrity(bytes: Uint8Array, integrity: string, what: string): Promise<void> {
  const listed = integrity.trim().split(/\s+/);
  for (const [name, webName] of algorithms) {
    const wanted = listed.filter((entry) => entry.startsWith(`${name}-`)).map((entry) => entry.split("?")[0]!);
    if (wanted.length === 0) continue;
    const got = `${name}-${base64(await crypto.subtle.digest(webName, bytes as Uint8Array<ArrayBuffer>))}`;
    if (wanted.includes(got)) return;
    throw new NpmError("EINTEGRITY", [
      `${wanted[0]} integrity checksum failed when using ${name}: wanted ${wanted[0]} but got ${got}. (${bytes.length} bytes)`,
      `(${what})`,
    ]);
  }
  throw new NpmError("EINTEGRITY", [`${what}: no hash npm knows in integrity "${integrity}"`]);
}
