/**
 * What must never travel in a share, taken out of a config's text: keys (any property named like one, at
 * any depth: `provider.*.options.apiKey`, a model's `headers`, an MCP server's `headers`, `environment` and
 * OAuth `clientSecret`) and approvals (`"allow"` answers in `permission` and `true` switches in `tools`, the
 * workspace's and each agent's: an "Always allow" saved by the author would otherwise approve for the
 * visitor). The entries stay, those parts go. Deny and ask rules stay: they only ever make the visitor's
 * side safer. Comments and the order of the rest are kept (jsonc-parser edits the text in place). A config
 * giving one key twice is refused before this (duplicateKeyIn).
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

/** The paths of every `true` in a legacy `tools: { "bash": true }` section: each is an "allow" rule. */
function switchedOnIn(section: Node | undefined, at: JSONPath): JSONPath[] {
  return childrenOf(section).flatMap(({ key, value }) => (value.type === "boolean" && value.value === true ? [[...at, key]] : []));
}

/**
 * Property names that hold a key, a token or a header (headers carry keys as often as not), wherever they
 * sit: a provider's options, a model's headers or options, a variant, an MCP server, an agent's options.
 * Compared lowercased, with `-` and `_` dropped.
 */
const KEY_NAMES = new Set([
  "apikey",
  "headers",
  "authorization",
  "password",
  "token",
  "accesstoken",
  "refreshtoken",
  "sessiontoken",
  "bearertoken",
  "authtoken",
  "secret",
  "clientsecret",
  "secretaccesskey",
  "accesskeyid",
  "privatekey",
  "environment",
]);

const isKeyName = (name: string) => KEY_NAMES.has(name.toLowerCase().replace(/[-_]/g, ""));

/** The paths of every property named like a key, at any depth below `node`; permission sections are rules, not keys. */
function keysIn(node: Node | undefined, at: JSONPath): JSONPath[] {
  if (node?.type === "array") return (node.children ?? []).flatMap((item, index) => keysIn(item, [...at, index]));
  return childrenOf(node).flatMap(({ key, value }) => {
    if (isKeyName(key)) return [[...at, key]];
    if (key === "permission") return [];
    return keysIn(value, [...at, key]);
  });
}

function secretPaths(root: Node | undefined): JSONPath[] {
  const paths: JSONPath[] = [];
  paths.push(...allowsIn(child(root, "permission"), ["permission"]));
  paths.push(...switchedOnIn(child(root, "tools"), ["tools"]));
  // `mode` is OpenCode's older name for agents.
  for (const section of ["agent", "mode"]) {
    for (const { key, value } of childrenOf(child(root, section))) {
      paths.push(...allowsIn(child(value, "permission"), [section, key, "permission"]));
      paths.push(...switchedOnIn(child(value, "tools"), [section, key, "tools"]));
    }
  }
  paths.push(...keysIn(root, []));
  return paths;
}

/**
 * The first key a config's JSON gives twice in one object, as `provider.openai.options.apiKey`, or
 * undefined. The scrub reads one of two equal keys and the config's parser the other, so a config with
 * one cannot be scrubbed with any confidence: a share refuses it.
 */
export function duplicateKeyIn(text: string): string | undefined {
  const tree = parseTree(text);
  const stack: Array<{ node: Node; at: string }> = tree ? [{ node: tree, at: "" }] : [];
  while (stack.length > 0) {
    const { node, at } = stack.pop()!;
    if (node.type === "array") (node.children ?? []).forEach((item, index) => stack.push({ node: item, at: `${at}[${index}]` }));
    if (node.type !== "object") continue;
    const seen = new Set<string>();
    for (const { key, value } of childrenOf(node)) {
      const where = at === "" ? key : `${at}.${key}`;
      if (seen.has(key)) return where;
      seen.add(key);
      stack.push({ node: value, at: where });
    }
  }
  return undefined;
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
function hasSecrets(text: string): boolean {
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
