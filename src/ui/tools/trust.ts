/**
 * Which workspaces the person at this browser trusts to run their own code (custom tools, plugins).
 *
 * Kept in localStorage rather than in the workspace: a workspace's files can come from anywhere (an
 * import, a clone), and a file inside it must never be able to grant itself trust. localStorage
 * belongs to this browser and origin, outlives a reload, and is read synchronously before the tool
 * session opens. The key is the workspace's name, which is what names a workspace in the URL.
 */
const KEY = "workbench.trusted-workspaces";

function trustedNames(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? "[]") as unknown;
    return Array.isArray(value) ? value.filter((name): name is string => typeof name === "string") : [];
  } catch {
    // No storage (a locked-down browser) or a damaged entry: nothing is trusted until asked again.
    return [];
  }
}

export function isTrusted(workspace: string | undefined): boolean {
  return workspace !== undefined && trustedNames().includes(workspace);
}

/** Remembers the trust; returns false when the browser keeps no storage, so it lasts for this page only. */
export function rememberTrust(workspace: string | undefined): boolean {
  if (workspace === undefined) return false;
  try {
    const names = trustedNames();
    if (!names.includes(workspace)) localStorage.setItem(KEY, JSON.stringify([...names, workspace]));
    return true;
  } catch {
    return false;
  }
}

/** Stops trusting: the next session of this workspace lists its code again instead of running it. */
export function forgetTrust(workspace: string | undefined): void {
  if (workspace === undefined) return;
  try {
    localStorage.setItem(KEY, JSON.stringify(trustedNames().filter((name) => name !== workspace)));
  } catch {
    // Nothing was stored, so there is nothing to forget.
  }
}
