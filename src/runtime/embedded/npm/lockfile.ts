import type { PackageManifest } from "./manifest.js";
import { binsOf } from "./manifest.js";
import { createRoot, walk, type TreeNode } from "./tree.js";
import { NpmError } from "./errors.js";
import { checkPackageName, isValidPackageName } from "./manifest.js";
import { errorMessage } from "../../../base/error-message.js";

/** One entry of package-lock.json's `packages` map. */
interface LockEntry extends PackageManifest {
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  link?: boolean;
  extraneous?: boolean;
}

export interface Lockfile {
  name?: string;
  version?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** The package fields a lockfile entry copies, in arborist's order (before the key sort below). */
const copiedFields = [
  "version",
  "dependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "optionalDependencies",
  "funding",
  "engines",
  "os",
  "cpu",
  "license",
  "hasInstallScript",
  "bin",
  "deprecated",
] as const;

const topKeyOrder = ["name", "version", "lockfileVersion", "resolved", "integrity", "requires", "packages", "dependencies"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * JSON laid out as npm lays out its lockfiles: in each object, plain values before objects, the
 * lockfile's own keys first in their order, everything else alphabetically (English collation).
 */
export function stringifyLockfile(value: unknown): string {
  const order = (a: string, b: string) => {
    const ia = topKeyOrder.indexOf(a);
    const ib = topKeyOrder.indexOf(b);
    if (ia >= 0 && ib < 0) return -1;
    if (ib >= 0 && ia < 0) return 1;
    if (ia >= 0 && ib >= 0) return ia - ib;
    return a.localeCompare(b, "en");
  };
  const sorted = (input: unknown): unknown => {
    if (Array.isArray(input)) return input.map(sorted);
    if (!isObject(input)) return input;
    const entries = Object.entries(input).sort(([ak, av], [bk, bv]) =>
      isObject(av) === isObject(bv) ? order(ak, bk) : isObject(av) ? 1 : -1,
    );
    return Object.fromEntries(entries.map(([key, inner]) => [key, sorted(inner)]));
  };
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

function meaningful(value: unknown): boolean {
  if (!value) return false;
  return !isObject(value) || Object.keys(value).length > 0;
}

function normalizedBin(manifest: PackageManifest): Record<string, string> | undefined {
  const bins = binsOf(manifest);
  const entries = Object.entries(bins).map(([name, path]) => [name, path.replace(/^\.\//, "")]);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function entryOf(node: TreeNode, root: boolean, recordResolved: boolean): LockEntry {
  const entry: Record<string, unknown> = {};
  const manifest = { ...node.manifest, bin: normalizedBin(node.manifest) };
  for (const key of copiedFields) {
    let value: unknown = manifest[key];
    if (key === "license" && isObject(value) && typeof value.type === "string") value = value.type;
    if (meaningful(value)) entry[key] = value;
  }
  if (root) {
    if (node.manifest.name) entry.name = node.manifest.name;
    if (meaningful(node.manifest.devDependencies)) entry.devDependencies = node.manifest.devDependencies;
    return entry as LockEntry;
  }
  if (node.integrity) entry.integrity = node.integrity;
  if (node.resolved && recordResolved) entry.resolved = node.resolved;
  if (node.peer) entry.peer = true;
  if (node.dev) entry.dev = true;
  if (node.optional) entry.optional = true;
  if (node.devOptional && !node.dev && !node.optional) entry.devOptional = true;
  return entry as LockEntry;
}

/** package-lock.json (lockfileVersion 3) for a tree; `hidden` leaves out the root, as node_modules/.package-lock.json does. */
export function lockfileOf(root: TreeNode, options: { hidden?: boolean; recordResolved: boolean }): Lockfile {
  const packages: Record<string, LockEntry> = {};
  if (!options.hidden) packages[""] = entryOf(root, true, options.recordResolved);
  const nodes: TreeNode[] = [];
  walk(root, (node) => {
    if (node !== root) nodes.push(node);
  });
  nodes.sort((a, b) => a.location.localeCompare(b.location, "en"));
  for (const node of nodes) packages[node.location] = entryOf(node, false, options.recordResolved);
  return {
    ...(root.manifest.name ? { name: root.manifest.name } : {}),
    ...(root.manifest.version ? { version: root.manifest.version } : {}),
    lockfileVersion: 3,
    requires: true,
    packages,
  };
}

/** Reads a lockfile's text; one npm cannot read (v1, or not JSON) says what to do. */
export function parseLockfile(text: string, path: string): Lockfile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new NpmError("EJSONPARSE", [
      `Invalid package-lock.json at ${path}: ${errorMessage(error)}`,
      "Remove it and run npm install to write a new one.",
    ]);
  }
  if (!isObject(parsed) || !isObject(parsed.packages)) {
    throw new NpmError("ELOCKFILE", [
      `${path} has no "packages" map (lockfileVersion ${isObject(parsed) ? String(parsed.lockfileVersion) : "?"}).`,
      "The embedded npm reads lockfileVersion 2 and 3; remove it and run npm install to write a new one.",
    ]);
  }
  return parsed as unknown as Lockfile;
}

/** Whether a lockfile location is a path of package folders under the project (and nothing that leaves it). */
export function isValidLocation(location: string): boolean {
  if (!location.startsWith("node_modules/")) return false;
  const names = location.split(/(?:^|\/)node_modules\//).filter((part) => part !== "");
  return names.length > 0 && names.every(isValidPackageName) && `node_modules/${names.join("/node_modules/")}` === location;
}

function nameFromLocation(location: string): string {
  return location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
}

/** The tree a lockfile describes, under a root made from the project's package.json as it is now. */
export function treeFromLockfile(lock: Lockfile, rootManifest: PackageManifest): TreeNode {
  const root = createRoot(rootManifest);
  const byLocation = new Map<string, TreeNode>([["", root]]);
  const locations = Object.keys(lock.packages)
    .filter((location) => location !== "" && location.includes("node_modules/"))
    .sort((a, b) => a.split("/node_modules/").length - b.split("/node_modules/").length || a.localeCompare(b, "en"));
  for (const location of locations) {
    const entry = lock.packages[location]!;
    if (entry.link || !entry.version) continue;
    const cut = location.lastIndexOf("/node_modules/");
    const parent = byLocation.get(cut < 0 ? "" : location.slice(0, cut));
    if (!parent) continue;
    const name = nameFromLocation(location);
    // A location is a path under the project: each package name on it must be one, or it could point anywhere.
    const names = location.split(/(?:^|\/)node_modules\//).filter((part) => part !== "");
    for (const part of names) checkPackageName(part, `at "${location}" in the lockfile`);
    const { resolved, integrity, dev, optional, devOptional, peer, link, extraneous, ...manifest } = entry;
    const node: TreeNode = {
      name,
      version: entry.version,
      location,
      parent,
      children: new Map(),
      manifest: { ...manifest, name },
      resolved,
      integrity,
    };
    parent.children.set(name, node);
    byLocation.set(location, node);
  }
  return root;
}
