/**
 * The workspaces opened from share links (named `shared-...` by sharedWorkspaceName): every link opened
 * makes one, kept in this browser until the person deletes it here, files and sessions together.
 */
import { sessionDatabaseName } from "./storage/indexeddb-session-store.js";
import { deleteDatabase, filesDatabaseName, storedWorkspaces } from "../workspace/stored-workspaces.js";

const SHARED_PREFIX = "shared-";

export async function listSharedWorkspaces(factory: IDBFactory = indexedDB): Promise<string[]> {
  return (await storedWorkspaces(factory)).filter((name) => name.startsWith(SHARED_PREFIX));
}

/** Deletes a shared workspace's files and sessions. Only shared ones: the person's own are never deleted from here. */
export async function deleteSharedWorkspace(name: string, factory: IDBFactory = indexedDB): Promise<void> {
  if (!name.startsWith(SHARED_PREFIX)) throw new Error(`${name} did not come from a share link; only those are deleted here.`);
  await deleteDatabase(filesDatabaseName(name), factory);
  await deleteDatabase(sessionDatabaseName(name), factory);
}
