/**
 * What must never travel in a share, taken out of a config's text: keys (`provider.*.options.apiKey`,
 * and `headers`, which carry keys as often as not) and approvals (`"allow"` answers in `permission`, the
 * workspace's and each agent's: an "Always allow" saved by the author would otherwise approve for the
 * visitor). MCP servers carry keys too: a remote one's `headers` (a bearer token), a local one's
 * `environment`, an OAuth `clientSecret`; the entries stay, those parts go. Deny and ask rules stay: they only ever make the visitor's side safer. Comments and the order
 * of the rest are kept (jsonc-parser edits the text in place).
 */
import { applyEdits, modify, parseTree, type JSONPath, type Node } from "jsonc-parser";

/** Workspace files that are config, at the workspace root. */
export const CONFIG_FILES = ["opencode.json", "opencode.jsonc"];

/**
 * Whether a shared path is a config file whose keys must come out: at the root, and at any depth too
 * (`.opencode/opencode.json`, a sub-project's), since OpenCode reads those and authors keep keys in them.
 */
export function isConfigFile(path: string): boolean {
  return CONFIG_FILES.includes(path.slice(path.lastIndexOf("/") + 1));
}

function childrenOf(node: Node | undefined): Array<{ key: string; value: Node }> {
  if (node?.type !== "object") return [];
  return (node.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    return key && value && typeof key.value === "string" ? [{ key: key.value, value }] : [];
  });
}

function child(node: Node | undefined, key: string): Node | undefined {
  return childrenOf(node).find((entry) => entry.key === key)?.value;
}

/** The paths of every "allow" in a permission section (a string, `{perm: action}` or `{perm: {pattern: action}}`). */
function allowsIn(section: Node | undefined, at: JSONPath): JSONPath[] {
  if (!section) return [];
  if (section.type === "string") return section.value === "allow" ? [at] : [];
  return childrenOf(section).flatMap(({ key, value }) => allowsIn(value, [...at, key]));
}

function secretPaths(root: Node | undefined): JSONPath[] {
  const paths: JSONPath[] = [];
  paths.push(...allowsIn(child(root, "permission"), ["permission"]));
  for (const { key, value } of childrenOf(child(root, "agent")))
    paths.push(...allowsIn(child(value, "permission"), ["agent", key, "permission"]));
  for (const { key, value } of childrenOf(child(root, "provider"))) {
    const options = child(value, "options");
    for (const name of ["apiKey", "headers"]) if (child(options, name)) paths.push(["provider", key, "options", name]);
  }
  for (const { key, value } of childrenOf(child(root, "mcp"))) {
    for (const name of ["headers", "environment"]) if (child(value, name)) paths.push(["mcp", key, name]);
    if (child(child(value, "oauth"), "clientSecret")) paths.push(["mcp", key, "oauth", "clientSecret"]);
  }
  return paths;
}

/** The config's text without keys or approvals. Text that does not parse is returned as it is (it holds nothing we could read either). */
export function withoutSecrets(text: string): string {
  let out = text;
  // One removal at a time, each on a fresh parse: edits shift the offsets of what follows.
  for (let guard = 0; guard < 10_000; guard++) {
    const [path] = secretPaths(parseTree(out));
    if (!path) return out;
    out = applyEdits(out, modify(out, path, undefined, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  }
  return out;
}

/** Whether the config's text holds a key or an approval. */
export function hasSecrets(text: string): boolean {
  return secretPaths(parseTree(text)).length > 0;
}

/**
 * Whether a file's name marks it as holding keys: the names the read tool asks about by default (`*.env`,
 * `*.env.*`), except the `*.env.example` template it allows. Such files stay out of a share.
 */
export function isKeyFile(name: string): boolean {
  if (name.endsWith(".env.example")) return false;
  return name.endsWith(".env") || name.includes(".env.");
}

/** Why a key file was left out, for the person sharing. */
export const KEY_FILE_NOTE = "it may hold keys (*.env, *.env.*): copy what it needs into .env.example to share it";
