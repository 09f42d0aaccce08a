import { unzipSync } from "fflate";
import { errorMessage } from "../../../base/error-message.js";
import { PipError } from "./errors.js";
import { parseMetadata, type CoreMetadata } from "./metadata.js";
import { normalizeName } from "./names.js";

/** A wheel may unpack to at most this much: a zip bomb gets a clear error, not a tab out of memory. */
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

export interface WheelContents {
  /** `name-version.dist-info`, as the wheel spells it. */
  distInfo: string;
  metadata: CoreMetadata;
  /** Every file, keyed by its path in the wheel (`/` separators, never leaving the folder it installs into). */
  files: Map<string, Uint8Array>;
}

/** A path a wheel may hold: relative, no `..`, no drive or backslash tricks. */
function isSafeRelativePath(path: string): boolean {
  if (path === "" || path.startsWith("/") || path.includes("\\") || /^[A-Za-z]:/.test(path)) return false;
  return path.split("/").every((part) => part !== ".." && part !== "." && part !== "");
}

/**
 * Opens a wheel (a zip, by fflate) and finds its `.dist-info` and METADATA. Anything that would land
 * outside the install folder, or unpack beyond the size limit, refuses the whole wheel.
 */
export function readWheel(bytes: Uint8Array, filename: string, expectedName: string): WheelContents {
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (total > MAX_UNPACKED_BYTES)
          throw new PipError([`${filename} unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MiB; it was not installed.`]);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof PipError) throw error;
    throw new PipError([`${filename} is not a valid wheel (zip): ${errorMessage(error)}.`]);
  }
  const files = new Map<string, Uint8Array>();
  for (const [path, data] of Object.entries(entries)) {
    if (path.endsWith("/")) continue; // A folder entry: folders are made for the files in them.
    if (!isSafeRelativePath(path))
      throw new PipError([`${filename} holds a file outside its install folder ('${path}'); nothing of it was installed.`]);
    files.set(path, data);
  }
  const distInfos = new Set([...files.keys()].map((path) => path.split("/")[0]!).filter((top) => top.endsWith(".dist-info")));
  const wanted = normalizeName(expectedName);
  const projectOf = (dir: string) => {
    const stem = dir.slice(0, -".dist-info".length);
    return normalizeName(stem.slice(0, stem.lastIndexOf("-")));
  };
  const distInfo = [...distInfos].find((dir) => projectOf(dir) === wanted);
  if (!distInfo) throw new PipError([`${filename} has no .dist-info folder for ${expectedName}; it is not a wheel of that project.`]);
  const metadataBytes = files.get(`${distInfo}/METADATA`);
  if (!metadataBytes) throw new PipError([`${filename} has no ${distInfo}/METADATA.`]);
  return { distInfo, metadata: parseMetadata(new TextDecoder().decode(metadataBytes)), files };
}
