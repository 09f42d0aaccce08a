import { InMemory, resolveMountConfig, type FileSystem } from "@zenfs/core";
import { IndexedDB } from "@zenfs/dom";
import { errorMessage } from "../../base/error-message.js";

export interface WorkspaceStorage {
  backing: FileSystem;
  /** Whether the files survive a reload. */
  persistent: boolean;
  /** Why they do not, when they do not; shown to the user. */
  notice?: string;
}

/**
 * The files of one named workspace: IndexedDB when the browser allows it, else memory, with the
 * reason said. The browser is asked to keep the data (navigator.storage.persist) so it is not
 * evicted under storage pressure.
 */
export async function openWorkspaceStorage(name: string, options: { memoryOnly?: boolean } = {}): Promise<WorkspaceStorage> {
  const memory = async (notice: string): Promise<WorkspaceStorage> => ({
    backing: await resolveMountConfig({ backend: InMemory }),
    persistent: false,
    notice,
  });
  if (options.memoryOnly) return memory("This workspace lives in memory only (asked for in the address): files are gone after a reload.");
  try {
    if (typeof indexedDB === "undefined" || !(await IndexedDB.isAvailable({}))) {
      return memory(
        "IndexedDB is not available in this browser (private mode or storage blocked): files live in memory and are gone after a reload. Download the workspace to keep them.",
      );
    }
    const backing = await resolveMountConfig({ backend: IndexedDB, storeName: `workbench:${name}` });
    void navigator.storage?.persist?.().catch(() => false);
    return { backing, persistent: true };
  } catch (error) {
    const detail = errorMessage(error);
    const full = /quota/i.test(detail) ? "the browser's storage is full" : detail;
    return memory(
      `Could not open the saved workspace (${full}): files live in memory and are gone after a reload. Download the workspace to keep them.`,
    );
  }
}
