/**
 * The address of a blob: SHA-256 of its bytes, in hex. A collision would restore the wrong bytes, so the
 * hash must be a cryptographic one (the 64-bit fingerprint of src/runtime guards only against accidents).
 * WebCrypto is there in Node and in a secure page (https, localhost), which is where the workbench runs.
 */
export async function contentHash(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("checkpoints need WebCrypto (crypto.subtle): open the workbench over https or on localhost");
  const digest = new Uint8Array(await subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
