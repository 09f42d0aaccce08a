import semver from "semver";
import { join } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";
import { NpmCache } from "./cache.js";
import { loadConfig, type NpmConfig } from "./config.js";
import { NpmError } from "./errors.js";
import { buildIdealTree } from "./ideal-tree.js";
import { parseLockfile, treeFromLockfile, type Lockfile } from "./lockfile.js";
import { checkSpec, parsePackageArg, pickVersion, satisfies, type DependencyMap, type PackageManifest } from "./manifest.js";
import { readProject, writeProject } from "./project.js";
import { InstallProgress, type ProgressSink } from "./progress.js";
import { reify, type ReifyResult } from "./reify.js";
import { RegistryClient, expectedIntegrity, type NpmFetch } from "./registry-client.js";
import { createRoot, edgesOf, markFlags, place, prune, resolveFrom, type TreeNode } from "./tree.js";

export interface InstallContext {
  files: WorkspaceFs;
  projectDir: string;
  env: Map<string, string>;
  fetch: NpmFetch;
  flags: Record<string, string | boolean>;
  signal?: AbortSignal;
  /** Where progress lines go while a large install runs (progress.ts); none when absent. */
  progress?: ProgressSink;
}

export type SaveType = "dependencies" | "devDependencies" | "optionalDependencies";

const depTypes: SaveType[] = ["dependencies", "devDependencies", "optionalDependencies"];

async function readLockfile(files: WorkspaceFs, path: string): Promise<Lockfile | undefined> {
  let text: string;
  try {
    text = new TextDecoder().decode(await files.readFile(path));
  } catch {
    return undefined;
  }
  return parseLockfile(text, path);
}

async function setup(ctx: InstallContext, create: boolean) {
  const config = await loadConfig(ctx.files, ctx.projectDir, ctx.env, ctx.flags);
  const project = await readProject(ctx.files, ctx.projectDir, { create });
  const lock =
    (await readLockfile(ctx.files, join(ctx.projectDir, "npm-shrinkwrap.json"))) ??
    (await readLockfile(ctx.files, join(ctx.projectDir, "package-lock.json")));
  const hidden = await readLockfile(ctx.files, join(ctx.projectDir, "node_modules/.package-lock.json")).catch(() => undefined);
  const progress = new InstallProgress(ctx.progress);
  const client = new RegistryClient(config, new NpmCache(ctx.files, config.cache), ctx.fetch, ctx.signal, () => progress.packumentRead());
  return { config, project, lock, hidden, client, progress };
}

/** The spec `npm install name@spec` saves: npm's save-prefix on the version for a tag or version, the range as typed otherwise. */
function savedSpec(spec: string, version: string, config: NpmConfig): string {
  if (config.saveExact) return version;
  if (spec === "" || semver.valid(spec, { loose: true }) || semver.validRange(spec, { loose: true }) === null)
    return `${config.savePrefix}${version}`;
  return spec;
}

function ms(elapsed: number): string {
  return elapsed < 1000 ? `${Math.round(elapsed)}ms` : `${Math.round(elapsed / 1000)}s`;
}

/** npm's closing line: "added 3 packages, and removed 1 package in 2s", or "up to date in 80ms". */
function summaryLine(result: Pick<ReifyResult, "added" | "removed" | "changed">, elapsed: number): string {
  const { added, removed, changed } = result;
  const plural = (n: number) => (n === 1 ? "" : "s");
  let msg = "\n";
  if (added === 0 && removed === 0 && changed === 0) msg += "up to date";
  else {
    if (added) msg += `added ${added} package${plural(added)}`;
    if (removed) msg += `${added ? ", " : ""}${added && !changed ? "and " : ""}removed ${removed} package${plural(removed)}`;
    if (changed) msg += `${added || removed ? ", and " : ""}changed ${changed} package${plural(changed)}`;
  }
  return `${msg} in ${ms(elapsed)}\n`;
}

export interface InstallOutput {
  stdout: string;
  stderr: string;
}

function output(result: ReifyResult, started: number): InstallOutput {
  const stderr =
    result.skippedScripts.length > 0
      ? `npm warn skipped install scripts (the embedded npm runs none): ${result.skippedScripts.join(", ")}\n`
      : "";
  return { stdout: summaryLine(result, Date.now() - started), stderr };
}

/** Resolves what is missing, drops what nothing needs, and writes node_modules (without dev packages under --omit=dev) and the lockfile. */
async function settle(
  ctx: InstallContext,
  root: TreeNode,
  client: RegistryClient,
  config: NpmConfig,
  hidden: Lockfile | undefined,
  progress: InstallProgress,
): Promise<ReifyResult> {
  await buildIdealTree(root, client, { omitDev: false });
  prune(root);
  markFlags(root);
  let installed = root;
  if (config.omitDev) {
    installed = createRoot(root.manifest);
    copyWithout(root, installed, (node) => Boolean(node.dev));
  }
  return reify(ctx.files, ctx.projectDir, installed, hidden, client, {
    recordResolved: config.recordResolved,
    lockTree: root,
    progress,
  });
}

function copyWithout(from: TreeNode, to: TreeNode, drop: (node: TreeNode) => boolean): void {
  for (const [name, child] of from.children) {
    if (drop(child)) continue;
    const copy = place(to, name, {
      version: child.version,
      manifest: child.manifest,
      resolved: child.resolved,
      integrity: child.integrity,
    });
    copyWithout(child, copy, drop);
  }
}

/** `npm install [name[@spec]...]`: adds what is named (saved to package.json), then makes node_modules match. */
export async function install(ctx: InstallContext, args: string[], saveType: SaveType): Promise<InstallOutput> {
  const started = Date.now();
  const { config, project, lock, hidden, client, progress } = await setup(ctx, args.length > 0);
  const manifest = project.manifest;
  const root = lock ? treeFromLockfile(lock, manifest) : createRoot(manifest);
  for (const arg of args) {
    const { name, spec } = parsePackageArg(arg);
    checkSpec(name, spec);
    const packument = await client.packument(name, spec || "latest");
    const picked = pickVersion(packument, spec);
    if (!picked?.version) throw new NpmError("ETARGET", [`No matching version found for ${name}@${spec || "latest"}.`]);
    for (const type of depTypes) if (type !== saveType && manifest[type]?.[name] !== undefined) delete manifest[type]![name];
    manifest[saveType] = sortedDeps({ ...manifest[saveType], [name]: savedSpec(spec, picked.version, config) });
    const present = root.children.get(name);
    if (!present || present.version !== picked.version) {
      place(root, name, {
        version: picked.version,
        manifest: { ...picked, name },
        resolved: picked.dist?.tarball,
        integrity: expectedIntegrity(picked.dist?.integrity, picked.dist?.shasum),
      });
    }
  }
  root.manifest = manifest;
  // package.json changes once node_modules does: a fetch that fails or is refused leaves both as they were.
  const result = await settle(ctx, root, client, config, hidden, progress);
  if (args.length > 0) await writeProject(ctx.files, project);
  return output(result, started);
}

function sortedDeps(deps: DependencyMap): DependencyMap {
  return Object.fromEntries(Object.entries(deps).sort(([a], [b]) => a.localeCompare(b, "en")));
}

/** `npm uninstall name...`: drops them from package.json and from node_modules, with what only they needed. */
export async function uninstall(ctx: InstallContext, names: string[]): Promise<InstallOutput> {
  const started = Date.now();
  const { config, project, lock, hidden, client, progress } = await setup(ctx, false);
  for (const name of names)
    for (const type of depTypes) if (project.manifest[type]?.[name] !== undefined) delete project.manifest[type]![name];
  for (const type of depTypes)
    if (project.manifest[type] && Object.keys(project.manifest[type]!).length === 0) delete project.manifest[type];
  await writeProject(ctx.files, project);
  const root = lock ? treeFromLockfile(lock, project.manifest) : createRoot(project.manifest);
  const result = await settle(ctx, root, client, config, hidden, progress);
  return output(result, started);
}

function inSync(lock: Lockfile, root: TreeNode, manifest: PackageManifest): string | undefined {
  const recorded = lock.packages[""] ?? {};
  for (const type of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const) {
    const now = manifest[type] ?? {};
    const then = recorded[type] ?? {};
    for (const name of new Set([...Object.keys(now), ...Object.keys(then)])) {
      if (now[name] !== then[name])
        return now[name] === undefined ? `Removed: ${name}@${then[name]}` : `Missing: ${name}@${now[name]} from lock file`;
    }
  }
  for (const edge of edgesOf(root)) {
    const found = resolveFrom(root, edge.name);
    if (!found || !satisfies(found.version, edge.spec))
      return `Invalid: lock file's ${edge.name}@${found?.version ?? "(none)"} does not satisfy ${edge.name}@${edge.spec}`;
  }
  return undefined;
}

/** `npm ci`: installs exactly what the lockfile says into an emptied node_modules; the lockfile must match package.json. */
export async function cleanInstall(ctx: InstallContext): Promise<InstallOutput> {
  const started = Date.now();
  const { config, project, lock, client, progress } = await setup(ctx, false);
  if (!lock) {
    throw new NpmError("EUSAGE", [
      "",
      "The `npm ci` command can only install with an existing package-lock.json or",
      "npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or",
      "later to generate a package-lock.json file, then try again.",
    ]);
  }
  const root = treeFromLockfile(lock, project.manifest);
  const problem = inSync(lock, root, project.manifest);
  if (problem) {
    throw new NpmError("EUSAGE", [
      "",
      "`npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.",
      "",
      problem,
    ]);
  }
  markFlags(root);
  let tree = root;
  if (config.omitDev) {
    tree = createRoot(project.manifest);
    copyWithout(root, tree, (node) => Boolean(node.dev));
  }
  const result = await reify(ctx.files, ctx.projectDir, tree, undefined, client, {
    recordResolved: config.recordResolved,
    clean: true,
    progress,
  });
  return output(result, started);
}
