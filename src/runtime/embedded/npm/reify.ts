import { dirname, join } from "pathe";
import { canWriteMany, type BulkWrites, type WorkspaceFs } from "../workspace-fs.js";
import { binDirOf, binShim } from "./bins.js";
import { isValidLocation, lockfileOf, stringifyLockfile, type Lockfile } from "./lockfile.js";
import { binsOf, installScriptsOf, type PackageManifest } from "./manifest.js";
import type { RegistryClient } from "./registry-client.js";
import { walk, type TreeNode } from "./tree.js";
import type { InstallProgress } from "./progress.js";
import { readPackageTarball, type PackageFile } from "./unpack.js";

export interface ReifyResult {
  added: number;
  removed: number;
  changed: number;
  /** `name@version (postinstall: ...)` of each package whose install scripts were not run. */
  skippedScripts: string[];
  fromCache: number;
}

interface ReifyOptions {
  recordResolved: boolean;
  /** The tree package-lock.json is written from; none for npm ci. */
  lockTree?: TreeNode;
  /** Empty node_modules first (npm ci), once everything is fetched. */
  clean?: boolean;
  progress?: InstallProgress;
}

/** How many packages are fetched and written at once; each write is a message to the file host. */
const PACKAGE_CONCURRENCY = 8;
const FILE_CONCURRENCY = 32;
/** A bulk write (writeMany) holds at most about this much: a short task for the page that stores it. */
const BATCH_FILES = 64;
const BATCH_BYTES = 1024 * 1024;

async function inParallel<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  });
  await Promise.all(lanes);
}

async function exists(files: WorkspaceFs, path: string): Promise<boolean> {
  try {
    await files.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes node_modules match the ideal tree: folders whose package (by location, version and integrity,
 * from the hidden lockfile of the last install) is already there stay; the rest are removed, and what is
 * missing is fetched (or read from the cache), checked and unpacked. Then every `.bin` folder is
 * written anew, and both lockfiles.
 */
export async function reify(
  files: WorkspaceFs,
  projectDir: string,
  ideal: TreeNode,
  actual: Lockfile | undefined,
  client: RegistryClient,
  options: ReifyOptions,
): Promise<ReifyResult> {
  const wanted: TreeNode[] = [];
  walk(ideal, (node) => {
    if (node !== ideal) wanted.push(node);
  });
  wanted.sort((a, b) => a.location.localeCompare(b.location, "en"));
  // What the last install left (node_modules/.package-lock.json): a location that is not a package folder
  // under the project is never acted on, whoever wrote it.
  const had = Object.fromEntries(Object.entries(actual?.packages ?? {}).filter(([location]) => isValidLocation(location)));
  const kept = new Set<TreeNode>();
  const keepable = (node: TreeNode): boolean => {
    if (!node.parent) return true;
    const before = had[node.location];
    return Boolean(before && before.version === node.version && before.integrity === node.integrity && keepable(node.parent));
  };
  for (const node of wanted) if (keepable(node) && (await exists(files, join(projectDir, node.location, "package.json")))) kept.add(node);
  const wantedLocations = new Set(wanted.map((node) => node.location));
  const gone = Object.keys(had).filter((location) => location !== "" && !wantedLocations.has(location));
  const fresh = wanted.filter((node) => !kept.has(node));

  // Everything is fetched, checked and read before anything on disk changes: a fetch that fails or is
  // refused leaves node_modules as it was. The tarballs are read in this worker, never on the page's thread.
  let fromCache = 0;
  const fetched = options.progress?.phase("fetched", fresh.length);
  const unpacked = new Map<TreeNode, PackageFile[]>();
  await inParallel(fresh, PACKAGE_CONCURRENCY, async (node) => {
    const resolved = node.resolved;
    if (!resolved)
      throw new Error(
        `${node.name}@${node.version} has no tarball URL in the lockfile; run npm install without the lockfile to resolve it again.`,
      );
    const tarball = await client.tarball({ name: node.name, version: node.version, resolved, integrity: node.integrity });
    if (tarball.fromCache) fromCache++;
    node.integrity = tarball.integrity;
    unpacked.set(node, await readPackageTarball(tarball.bytes, `${node.name}@${node.version}`));
    fetched?.done();
  });

  if (options.clean) await files.rm(join(projectDir, "node_modules"), { recursive: true, force: true });
  // Remove first, deepest last so a parent's removal does not race its child's.
  for (const location of [...gone, ...fresh.map((node) => node.location)])
    await files.rm(join(projectDir, location), { recursive: true, force: true });

  /** The install scripts each unpacked package declares (a registry's short packument only says whether there are any). */
  const installScripts = new Map<TreeNode, string[]>();
  const createdDirs = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (createdDirs.has(dir)) return;
    await files.mkdir(dir, { recursive: true });
    createdDirs.add(dir);
  };
  const written = options.progress?.phase("unpacked", fresh.length);
  const scriptsOf = (node: TreeNode, contents: readonly PackageFile[]) => {
    const packageJson = contents.find((file) => file.path === "package.json");
    if (!packageJson) return;
    try {
      const scripts = installScriptsOf(JSON.parse(new TextDecoder().decode(packageJson.data)) as PackageManifest);
      if (scripts.length > 0) installScripts.set(node, scripts);
    } catch {
      // A package.json that is not JSON still installs; npm would fail later, when something reads it.
    }
  };
  if (canWriteMany(files)) {
    // The file host writes a batch in one store transaction with one change announced, where a file at a
    // time costs a round trip and a transaction each (most of an install's time over IndexedDB). Batches
    // stay small, so the page's side of each is a short task and the progress keeps moving.
    let batch: Array<{ path: string; data: Uint8Array }> = [];
    let batchBytes = 0;
    let batchNodes: TreeNode[] = [];
    /** Set once the host refused a batch for a link on the way (a node_modules that is a link): files one by one from then on, through the link as before. */
    let oneByOne = false;
    const writeBatch = async (files: WorkspaceFs & BulkWrites, batch: Array<{ path: string; data: Uint8Array }>) => {
      if (!oneByOne) {
        try {
          return await files.writeMany(batch);
        } catch (error) {
          if ((error as { code?: string }).code !== "ELOOP") throw error;
          oneByOne = true;
        }
      }
      for (const file of batch) {
        await ensureDir(dirname(file.path));
        await files.writeFile(file.path, file.data);
      }
    };
    const flush = async () => {
      if (batch.length > 0) await writeBatch(files, batch);
      for (let told = 0; told < batchNodes.length; told++) written?.done();
      batch = [];
      batchBytes = 0;
      batchNodes = [];
    };
    for (const node of fresh) {
      const folder = join(projectDir, node.location);
      const contents = unpacked.get(node) ?? [];
      unpacked.delete(node);
      scriptsOf(node, contents);
      // An empty package still gets its folder.
      if (contents.length === 0) await ensureDir(folder);
      for (const file of contents) {
        batch.push({ path: join(folder, file.path), data: file.data });
        batchBytes += file.data.byteLength;
      }
      batchNodes.push(node);
      if (batch.length >= BATCH_FILES || batchBytes >= BATCH_BYTES) await flush();
    }
    await flush();
  } else {
    await inParallel(fresh, PACKAGE_CONCURRENCY, async (node) => {
      const folder = join(projectDir, node.location);
      const contents = unpacked.get(node) ?? [];
      // Dropped once written: a large tree is not held twice over.
      unpacked.delete(node);
      scriptsOf(node, contents);
      await ensureDir(folder);
      for (const file of contents) await ensureDir(dirname(join(folder, file.path)));
      await inParallel(contents, FILE_CONCURRENCY, (file) => files.writeFile(join(folder, file.path), file.data));
      written?.done();
    });
  }

  const binDirs = new Set<string>();
  for (const node of wanted) if (Object.keys(binsOf(node.manifest)).length > 0) binDirs.add(binDirOf(projectDir, node.location, node.name));
  for (const location of Object.keys(had))
    if (location !== "")
      await files.rm(binDirOf(projectDir, location, location.slice(location.lastIndexOf("node_modules/") + 13)), {
        recursive: true,
        force: true,
      });
  for (const node of wanted) {
    for (const [binName, binPath] of Object.entries(binsOf(node.manifest))) {
      if (binName.includes("/") || binName === "." || binName === "..") continue;
      const binDir = binDirOf(projectDir, node.location, node.name);
      const target = join(projectDir, node.location, binPath);
      if (!target.startsWith(`${join(projectDir, node.location)}/`)) continue;
      let head = "";
      try {
        head = new TextDecoder().decode((await files.read(target, { position: 0, length: 64 })).slice(0, 64));
      } catch {
        continue;
      }
      await ensureDir(binDir);
      const entry = join(binDir, binName);
      await files.rm(entry, { force: true });
      await files.writeFile(entry, binShim(binDir, target, head));
      await files.chmod(entry, 0o755);
    }
  }

  const skippedScripts = fresh
    .filter((node) => node.manifest.hasInstallScript || installScripts.has(node))
    .map((node) => {
      const scripts = installScripts.get(node) ?? installScriptsOf(node.manifest);
      return `${node.name}@${node.version}${scripts.length > 0 ? ` (${scripts.join(", ")})` : ""}`;
    });
  if (wanted.length > 0) {
    await ensureDir(join(projectDir, "node_modules"));
    await files.writeFile(
      join(projectDir, "node_modules/.package-lock.json"),
      stringifyLockfile(lockfileOf(ideal, { hidden: true, recordResolved: true })),
    );
  } else {
    await files.rm(join(projectDir, "node_modules/.package-lock.json"), { force: true });
  }
  if (options.lockTree)
    await files.writeFile(
      join(projectDir, "package-lock.json"),
      stringifyLockfile(lockfileOf(options.lockTree, { recordResolved: options.recordResolved })),
    );
  const changed = fresh.filter((node) => had[node.location]).length;
  return { added: fresh.length - changed, removed: gone.length, changed, skippedScripts, fromCache };
}
