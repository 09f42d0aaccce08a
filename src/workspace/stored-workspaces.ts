/**
 * The workspaces this browser keeps, as IndexedDB databases: `browser-storage.ts` stores each workspace's
 * files in the database `workbench:<name>` (ZenFS names its database after the store).
 */
const FILES_PREFIX = "workbench:";

/** The names of the workspaces whose files this browser keeps. */
export async function storedWorkspaces(factory: IDBFactory = indexedDB): Promise<string[]> {
  const databases = await factory.databases();
  return databases.flatMap(({ name }) => (name?.startsWith(FILES_PREFIX) ? [name.slice(FILES_PREFIX.length)] : [])).sort();
}

/** The database holding a workspace's files. */
export function filesDatabaseName(workspace: string): string {
  return `${FILES_PREFIX}${workspace}`;
}

/**
 * Deletes one database. A tab that still has it open blocks the deletion: that is refused with what to do,
 * rather than left waiting for ever.
 */
export function deleteDatabase(name: string, factory: IDBFactory = indexedDB): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`could not delete ${name}`));
    request.onblocked = () => reject(new Error(`${name} is open in another tab: close that tab, then delete it again.`));
  });
}
