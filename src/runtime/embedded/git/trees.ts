import git from "isomorphic-git";
import { join } from "pathe";
import { isRuntimeError } from "../../errors.js";
import type { Repo } from "./repo.js";

/** One file as a tree, the index or the work tree holds it. `bytes` is read only when needed. */
export interface FileVersion {
  oid: string;
  mode: number;
  bytes(): Promise<Uint8Array>;
}

export type FileSet = Map<string, FileVersion>;

function blobReader(repo: Repo, oid: string): () => Promise<Uint8Array> {
  return async () => (await git.readBlob({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid })).blob;
}

async function walkInto(repo: Repo, walker: ReturnType<typeof git.TREE>): Promise<FileSet> {
  const files: FileSet = new Map();
  await git.walk({
    fs: repo.fs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    trees: [walker],
    map: async (path, [entry]) => {
      if (!entry || path === "." || (await entry.type()) !== "blob") return undefined;
      const oid = await entry.oid();
      files.set(path, { oid, mode: await entry.mode(), bytes: blobReader(repo, oid) });
      return undefined;
    },
  });
  return files;
}

/** The files of a commit's tree (none for an unborn branch). */
export function commitFiles(repo: Repo, commit: string | undefined): Promise<FileSet> {
  return commit === undefined ? Promise.resolve(new Map()) : walkInto(repo, git.TREE({ ref: commit }));
}

/** The files the index records. */
export function indexFiles(repo: Repo): Promise<FileSet> {
  return walkInto(repo, git.STAGE());
}

/** A work tree file as git would store it, or undefined when it is gone. */
export async function workFile(repo: Repo, path: string): Promise<FileVersion | undefined> {
  const absolute = join(repo.dir, path);
  let stat;
  try {
    stat = await repo.files.lstat(absolute);
  } catch (error) {
    if (isRuntimeError(error)) return undefined;
    throw error;
  }
  if (stat.type === "directory") return undefined;
  const bytes =
    stat.type === "symlink" ? new TextEncoder().encode(await repo.files.readlink(absolute)) : await repo.files.readFile(absolute);
  const mode = stat.type === "symlink" ? 0o120000 : stat.mode & 0o111 ? 0o100755 : 0o100644;
  const { oid } = await git.hashBlob({ object: bytes });
  return { oid, mode, bytes: async () => bytes };
}
