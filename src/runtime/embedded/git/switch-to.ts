import git from "isomorphic-git";
import { dirname, join } from "pathe";
import { repoStatus } from "./changes.js";
import { abbrev, GitFatal, gitError, headOid, type Repo } from "./repo.js";
import { commitFiles, type FileVersion } from "./trees.js";

/** Writes one stored file into the work tree and the index. */
export async function writeWorkFile(repo: Repo, path: string, version: FileVersion): Promise<void> {
  const absolute = join(repo.dir, path);
  await repo.files.mkdir(dirname(absolute), { recursive: true });
  const bytes = await version.bytes();
  const existing = await repo.files.lstat(absolute).catch(() => undefined);
  if (existing && (existing.type !== "file" || version.mode === 0o120000)) await repo.files.rm(absolute, { recursive: true, force: true });
  if (version.mode === 0o120000) await repo.files.symlink(new TextDecoder().decode(bytes), absolute);
  else {
    await repo.files.writeFile(absolute, bytes);
    await repo.files.chmod(absolute, version.mode === 0o100755 ? 0o755 : 0o644);
  }
}

/** Removes a file from the work tree, and the folders it leaves empty (as git does). */
export async function removeWorkFile(repo: Repo, path: string): Promise<void> {
  await repo.files.rm(join(repo.dir, path), { force: true });
  let dir = dirname(path);
  while (dir !== "." && dir !== "") {
    const absolute = join(repo.dir, dir);
    const entries = await repo.files.readdir(absolute).catch(() => undefined);
    if (!entries || entries.length > 0) break;
    await repo.files.rm(absolute, { recursive: true });
    dir = dirname(dir);
  }
}

const sameVersion = (a: FileVersion | undefined, b: FileVersion | undefined) => a?.oid === b?.oid && a?.mode === b?.mode;

/**
 * Moves the work tree and index from HEAD's commit to `target`, keeping local changes to files
 * the two commits agree on, and refusing (as git does) when a change would be lost. Returns the
 * `M\tpath` lines git prints for the local changes carried along.
 */
export async function moveTo(repo: Repo, target: string): Promise<string> {
  const from = await commitFiles(repo, await headOid(repo));
  const to = await commitFiles(repo, target);
  const status = await repoStatus(repo);
  const local = new Set(status.changes.flatMap((c) => (c.from === undefined ? [c.path] : [c.path, c.from])));
  const untracked = new Set(status.untrackedFiles);
  const differing = [...new Set([...from.keys(), ...to.keys()])].filter((p) => !sameVersion(from.get(p), to.get(p))).sort();
  const overwritten = differing.filter((p) => local.has(p));
  if (overwritten.length > 0) {
    throw gitError(
      `error: Your local changes to the following files would be overwritten by checkout:\n${overwritten.map((p) => `\t${p}\n`).join("")}` +
        "Please commit your changes or stash them before you switch branches.\nAborting\n",
    );
  }
  const clobbered = differing.filter((p) => untracked.has(p) && to.has(p));
  if (clobbered.length > 0) {
    throw gitError(
      `error: The following untracked working tree files would be overwritten by checkout:\n${clobbered.map((p) => `\t${p}\n`).join("")}` +
        "Please move or remove them before you switch branches.\nAborting\n",
    );
  }
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const removed: string[] = [];
  const written: string[] = [];
  for (const path of differing) {
    const version = to.get(path);
    if (version) {
      await writeWorkFile(repo, path, version);
      written.push(path);
    } else {
      await removeWorkFile(repo, path);
      removed.push(path);
    }
  }
  if (removed.length > 0) await git.remove({ ...where, filepath: removed });
  if (written.length > 0) await git.add({ ...where, filepath: written });
  let carried = "";
  for (const change of status.changes) {
    if (differing.includes(change.path)) continue;
    if (change.from !== undefined) carried += `D\t${change.from}\n`;
    const letter = change.index === "A" || change.index === "R" ? "A" : change.index === "D" || change.worktree === "D" ? "D" : "M";
    carried += `${letter}\t${change.path}\n`;
  }
  return carried;
}

/** Points HEAD at a branch (or, with `detach`, straight at a commit). */
export async function setHead(repo: Repo, to: { branch: string } | { detach: string }): Promise<void> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  if ("branch" in to) await git.writeRef({ ...where, ref: "HEAD", value: `refs/heads/${to.branch}`, symbolic: true, force: true });
  else await git.writeRef({ ...where, ref: "HEAD", value: to.detach, force: true });
}

export async function branchExists(repo: Repo, name: string): Promise<boolean> {
  return (await git.listBranches({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir })).includes(name);
}

/** git's own rule for a branch name, in short (check-ref-format). */
export function assertBranchName(name: string): void {
  if (
    name === "" ||
    name === "HEAD" ||
    name.startsWith("-") ||
    name.startsWith("/") ||
    name.endsWith("/") ||
    name.endsWith(".") ||
    name.endsWith(".lock") ||
    /\.\.|\/\/|@\{|[\x00-\x20~^:?*[\\\x7f]|(^|\/)\./.test(name)
  ) {
    throw new GitFatal(`'${name}' is not a valid branch name`);
  }
}

export function detachedAdvice(oid: string, subject: string): string {
  return (
    `Note: switching to '${oid}'.\n\n` +
    "You are in 'detached HEAD' state. You can look around, make experimental\n" +
    "changes and commit them, and you can discard any commits you make in this\n" +
    "state without impacting any branches by switching back to a branch.\n\n" +
    "If you want to create a new branch to retain commits you create, you may\n" +
    "do so (now or later) by using -c with the switch command. Example:\n\n" +
    "  git switch -c <new-branch-name>\n\n" +
    "Or undo this operation with:\n\n" +
    "  git switch -\n\n" +
    "Turn off this advice by setting config variable advice.detachedHead to false\n\n" +
    `HEAD is now at ${abbrev(oid)} ${subject}\n`
  );
}
