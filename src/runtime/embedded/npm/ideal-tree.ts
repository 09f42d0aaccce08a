import { NpmError } from "./errors.js";
import { checkPackageName, checkSpec, isValidPackageName, pickVersion, satisfies, type PackageManifest } from "./manifest.js";
import { expectedIntegrity, type RegistryClient } from "./registry-client.js";
import { depth, edgesOf, place, placementFor, resolveFrom, walk, type TreeNode } from "./tree.js";

/** Fields of a registry version kept on a node: what the lockfile records and the install needs. */
const keptFields = [
  "name",
  "version",
  "dependencies",
  "optionalDependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "bin",
  "license",
  "engines",
  "os",
  "cpu",
  "funding",
  "deprecated",
  "hasInstallScript",
] as const;

function keep(manifest: PackageManifest): PackageManifest {
  const out: Record<string, unknown> = {};
  for (const key of keptFields) if (manifest[key] !== undefined) out[key] = manifest[key];
  if (!manifest.hasInstallScript && ["preinstall", "install", "postinstall"].some((name) => manifest.scripts?.[name]))
    out.hasInstallScript = true;
  return out as PackageManifest;
}

function attached(node: TreeNode): boolean {
  for (let at = node; at.parent; at = at.parent) if (at.parent.children.get(at.name) !== at) return false;
  return true;
}

function hasProblem(node: TreeNode, omitDev: boolean): boolean {
  return edgesOf(node, { omitDev }).some((edge) => {
    const found = resolveFrom(node, edge.name);
    return !found || !satisfies(found.version, edge.spec);
  });
}

const byDepthThenPath = (a: TreeNode, b: TreeNode) => depth(a) - depth(b) || a.location.localeCompare(b.location, "en");

/**
 * Makes every dependency edge of the tree resolve to a version that satisfies it, as npm's
 * buildIdealTree does: breadth first, each package's edges by name, a missing or unfitting one placed
 * where `placementFor` says. What is already there and fits (from the lockfile) stays. An optional
 * dependency that cannot be had is left out.
 */
export async function buildIdealTree(root: TreeNode, client: RegistryClient, options: { omitDev: boolean }): Promise<void> {
  const prefetch = (node: TreeNode) => {
    for (const edge of edgesOf(node, options)) {
      const found = resolveFrom(node, edge.name);
      if ((!found || !satisfies(found.version, edge.spec)) && isValidPackageName(edge.name))
        client.packument(edge.name, edge.spec).catch(() => undefined);
    }
  };
  for (let round = 0; round < 20; round++) {
    const queue: TreeNode[] = [];
    walk(root, (node) => {
      if (hasProblem(node, options.omitDev)) queue.push(node);
    });
    if (queue.length === 0) return;
    for (const node of queue) prefetch(node);
    while (queue.length > 0) {
      queue.sort(byDepthThenPath);
      const node = queue.shift()!;
      if (!attached(node)) continue;
      for (const edge of edgesOf(node, options)) {
        const found = resolveFrom(node, edge.name);
        if (found && satisfies(found.version, edge.spec)) continue;
        checkPackageName(edge.name, `in the dependencies of ${node.parent ? `${node.name}@${node.version}` : "package.json"}`);
        let manifest: PackageManifest | undefined;
        try {
          checkSpec(edge.name, edge.spec);
          const packument = await client.packument(edge.name, edge.spec);
          manifest = pickVersion(packument, edge.spec);
          if (!manifest?.version) {
            throw new NpmError("ETARGET", [
              `No matching version found for ${edge.name}@${edge.spec}.`,
              "In most cases you or one of your dependencies are requesting",
              "a package version that doesn't exist.",
            ]);
          }
        } catch (error) {
          if (edge.kind === "optional") continue;
          throw error;
        }
        const version = manifest.version!;
        const target = placementFor(node, edge.name, version);
        const added = place(target, edge.name, {
          version,
          manifest: keep({ ...manifest, name: edge.name }),
          resolved: manifest.dist?.tarball,
          integrity: expectedIntegrity(manifest.dist?.integrity, manifest.dist?.shasum),
        });
        prefetch(added);
        queue.push(added);
      }
    }
  }
  throw new NpmError("ERESOLVE", ["Could not settle the dependency tree after 20 rounds: some dependencies keep displacing each other."]);
}
