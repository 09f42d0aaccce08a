/**
 * One writer per workspace across tabs. ZenFS keeps a cache of the IndexedDB store in each tab, so
 * two tabs writing the same store would overwrite each other's changes; a Web Lock held for the life
 * of the page makes the second tab find out and open read-only instead.
 */
export type LockOutcome = { held: true; release(): void } | { held: false; reason: string };

export async function acquireWorkspaceLock(name: string): Promise<LockOutcome> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks) return { held: true, release: () => {} }; // No Web Locks (very old browser): nothing to coordinate with.
  return new Promise<LockOutcome>((resolve) => {
    void locks.request(`workbench:workspace:${name}`, { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve({ held: false, reason: `The workspace "${name}" is open in another tab.` });
        return undefined;
      }
      // Held until release() or until the page goes away.
      return new Promise<void>((release) => resolve({ held: true, release: () => release() }));
    });
  });
}
