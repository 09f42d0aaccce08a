import type { DependencyMap, PackageManifest } from "./manifest.js";
import { satisfies } from "./manifest.js";

/** One package folder in node_modules (or the project itself, the root, at location ""). */
export interface TreeNode {
  name: string;
  version: string;
  /** Where it is, relative to the project: `node_modules/a/node_modules/b`; "" for the root. */
  location: string;
  parent: TreeNode | undefined;
  children: Map<string, TreeNode>;
  /** What the lockfile records of it: dependencies, bin, license, engines and the like. */
  manifest: PackageManifest;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
}

type EdgeKind = "prod" | "dev" | "optional" | "peer";

export interface Edge {
  name: string;
  spec: string;
  kind: EdgeKind;
}

export function createRoot(manifest: PackageManifest): TreeNode {
  return { name: manifest.name ?? "", version: manifest.version ?? "", location: "", parent: undefined, children: new Map(), manifest };
}

function childLocation(parent: TreeNode, name: string): string {
  return parent.location === "" ? `node_modules/${name}` : `${parent.location}/node_modules/${name}`;
}

/** A node's dependencies as edges, sorted by name as npm walks them; devDependencies count only at the root. */
export function edgesOf(node: TreeNode, options: { omitDev?: boolean } = {}): Edge[] {
  const edges = new Map<string, Edge>();
  const add = (deps: DependencyMap | undefined, kind: EdgeKind) => {
    for (const [name, spec] of Object.entries(deps ?? {})) if (!edges.has(name)) edges.set(name, { name, spec, kind });
  };
  const m = node.manifest;
  add(m.optionalDependencies, "optional");
  add(m.dependencies, "prod");
  if (node.parent === undefined && !options.omitDev) add(m.devDependencies, "dev");
  const peers = Object.fromEntries(Object.entries(m.peerDependencies ?? {}).filter(([name]) => !m.peerDependenciesMeta?.[name]?.optional));
  add(peers, "peer");
  return [...edges.values()].sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/** The folder Node's require would find for `name` from `node`: its own node_modules, then each parent's. */
export function resolveFrom(node: TreeNode, name: string): TreeNode | undefined {
  for (let at: TreeNode | undefined = node; at; at = at.parent) {
    const found = at.children.get(name);
    if (found) return found;
  }
  return undefined;
}

export function walk(root: TreeNode, visit: (node: TreeNode) => void): void {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    for (const child of node.children.values()) stack.push(child);
  }
}

export function depth(node: TreeNode): number {
  let n = 0;
  for (let at = node.parent; at; at = at.parent) n++;
  return n;
}

/** Whether putting `version` of `name` into `level` would change what some package below it resolves to now, and break it. */
function wouldShadow(level: TreeNode, name: string, version: string): boolean {
  let broken = false;
  const visit = (node: TreeNode, shadowedAbove: boolean) => {
    if (broken) return;
    // Below a folder that has its own copy, nothing resolves past it to `level`.
    const own = node !== level && node.children.has(name);
    if (!own && shadowedAbove) {
      for (const edge of edgesOf(node)) {
        if (edge.name !== name || satisfies(version, edge.spec)) continue;
        // Only an edge that works now can be broken; a missing or unfitting one gets its own copy later.
        const now = resolveFrom(node, name);
        if (now && satisfies(now.version, edge.spec)) {
          broken = true;
          return;
        }
      }
    }
    for (const [childName, child] of node.children) if (childName !== name) visit(child, shadowedAbove && !own);
  };
  visit(level, true);
  return broken;
}

/**
 * Where a new copy of `name@version` needed by `dependent` goes, as npm places it: as high up as
 * possible (hoisted), but never above a folder holding another version of it, and never where it
 * would break what something else there resolves to. A copy the dependent itself holds is replaced.
 */
export function placementFor(dependent: TreeNode, name: string, version: string): TreeNode {
  let best = dependent;
  if (dependent.children.has(name)) return dependent;
  for (let level = dependent.parent; level; level = level.parent) {
    if (level.children.has(name)) break;
    if (wouldShadow(level, name, version)) break;
    best = level;
  }
  return best;
}

export function place(target: TreeNode, name: string, fields: Omit<TreeNode, "location" | "parent" | "children" | "name">): TreeNode {
  const node: TreeNode = { ...fields, name, location: childLocation(target, name), parent: target, children: new Map() };
  target.children.set(name, node);
  return node;
}

/** Every node reachable from the root through its dependencies' resolutions; the rest are extraneous. */
export function prune(root: TreeNode, options: { omitDev?: boolean } = {}): void {
  const reachable = new Set<TreeNode>([root]);
  const queue = [root];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const edge of edgesOf(node, options)) {
      const target = resolveFrom(node, edge.name);
      if (target && !reachable.has(target)) {
        reachable.add(target);
        queue.push(target);
      }
    }
  }
  walk(root, (node) => {
    for (const [name, child] of node.children) if (!reachable.has(child)) node.children.delete(name);
  });
}

/**
 * npm's dev, optional, devOptional and peer flags: `dev` when only devDependencies of the root need it,
 * `optional` when only optional edges lead to it, `devOptional` when it is needed by neither the
 * production tree nor only one of those, `peer` when only peer edges lead to it.
 */
export function markFlags(root: TreeNode): void {
  const reach = (rootEdge: (edge: Edge) => boolean, edgeOk: (edge: Edge) => boolean) => {
    const seen = new Set<TreeNode>();
    const queue: TreeNode[] = [];
    for (const edge of edgesOf(root)) {
      const target = resolveFrom(root, edge.name);
      if (target && rootEdge(edge) && edgeOk(edge) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const edge of edgesOf(node)) {
        const target = resolveFrom(node, edge.name);
        if (target && edgeOk(edge) && !seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    return seen;
  };
  const notDev = reach(
    (edge) => edge.kind !== "dev",
    () => true,
  );
  const notOptional = reach(
    () => true,
    (edge) => edge.kind !== "optional",
  );
  const required = reach(
    (edge) => edge.kind !== "dev",
    (edge) => edge.kind !== "optional",
  );
  const notPeer = reach(
    () => true,
    (edge) => edge.kind !== "peer",
  );
  walk(root, (node) => {
    if (node === root) return;
    node.dev = !notDev.has(node);
    node.optional = !notOptional.has(node);
    node.devOptional = !required.has(node) && !node.dev && !node.optional;
    node.peer = !notPeer.has(node);
  });
}
