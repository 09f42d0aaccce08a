import { gunzipSync } from "fflate";
import { unpackTar } from "modern-tar";
import { NpmError } from "./errors.js";
import { errorMessage } from "../../../base/error-message.js";

export interface PackageFile {
  /** Path inside the package folder, with `/` separators, never leaving it. */
  path: string;
  data: Uint8Array;
  mode: number;
}

/**
 * The files of an npm tarball (gzip by fflate, tar by modern-tar): the first path component
 * (`package/`) stripped as npm strips it, only regular files kept (npm extracts no links or devices),
 * and an entry that would land outside the package folder refused.
 */
export async function readPackageTarball(bytes: Uint8Array, what: string): Promise<PackageFile[]> {
  let tar: Uint8Array;
  try {
    tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  } catch (error) {
    throw new NpmError("EBADTARBALL", [`${what}: the tarball is not valid gzip (${errorMessage(error)}).`]);
  }
  let entries: Awaited<ReturnType<typeof unpackTar>>;
  try {
    entries = await unpackTar(tar);
  } catch (error) {
    throw new NpmError("EBADTARBALL", [`${what}: the tarball cannot be read (${errorMessage(error)}).`]);
  }
  const files = new Map<string, PackageFile>();
  for (const entry of entries) {
    const type = entry.header.type ?? "file";
    if (type !== "file") continue;
    const parts = entry.header.name
      .replace(/\\/g, "/")
      .split("/")
      .filter((part) => part !== "" && part !== ".");
    parts.shift();
    if (parts.length === 0) continue;
    if (parts.includes(".."))
      throw new NpmError("EBADTARBALL", [
        `${what}: the tarball entry "${entry.header.name}" points outside the package; nothing of it was written.`,
      ]);
    files.set(parts.join("/"), { path: parts.join("/"), data: entry.data ?? new Uint8Array(), mode: entry.header.mode ?? 0o644 });
  }
  return [...files.values()];
}
