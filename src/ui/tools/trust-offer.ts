/**
 * When and how Trust is offered. Trust lets a workspace's own code and settings act for the person, so it
 * is never offered where someone else drives the page (an embed: its host chose the files), and a workspace
 * that came from a share link takes a second, deliberate step that names what trust changes.
 */

/** What trusting a workspace changes, as the notice and the shared workspace's confirmation say it. */
export const TRUST_CHANGES = [
  "its own tools and plugins (.opencode/tool, .opencode/plugin) run, in a sandbox apart from your keys and storage, and can change its files through the shell",
  "its MCP servers start and get its tools' calls",
  "its fetch proxy carries web fetches",
  "its rules that loosen the built-in ones apply (commands and edits allowed without asking, folders outside opened)",
];

/** A workspace opened from a share link: the page names them `shared-...` (sharedWorkspaceName). */
export function isSharedWorkspace(name: string): boolean {
  return name.startsWith("shared-");
}

/**
 * The second step for a shared workspace: the question a person must confirm, naming what this one holds
 * (`contents`, one line each) as well as what trust changes.
 */
export function sharedTrustQuestion(name: string, contents: readonly string[] = []): string {
  return [
    `"${name}" came from a share link: someone else wrote its files and config.`,
    "",
    ...(contents.length > 0 ? ["It contains:", ...contents.map((line) => `- ${line}`), ""] : []),
    "Trusting it means:",
    ...TRUST_CHANGES.map((change) => `- ${change}`),
    "",
    "Trust never sends your keys anywhere new: an address its config names for your key is asked about in the chat.",
    "Trust it only if you know and trust who made the link. Trust it?",
  ].join("\n");
}
