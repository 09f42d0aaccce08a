import git from "isomorphic-git";
import { createBranch } from "./branch.js";
import { subjectOf } from "./commit.js";
import {
  abbrev,
  currentBranch,
  findRepo,
  GitFatal,
  gitError,
  headOid,
  isRevision,
  Out,
  repoPath,
  resolveRevision,
  underPath,
  type GitEnv,
  type Repo,
} from "./repo.js";
import { branchExists, detachedAdvice, moveTo, setHead, writeWorkFile } from "./switch-to.js";
import { commitFiles, indexFiles, workFile } from "./trees.js";

/**
 * Puts paths back as the index (or, with `source`, a commit) has them; from a commit the index
 * follows too. Says how many work tree files changed and from where, as `git checkout` reports it.
 */
async function restorePaths(
  repo: Repo,
  pathArgs: string[],
  source: string | undefined,
  worktree: boolean,
  staged: boolean,
): Promise<{ updated: number; from: string }> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const specs = pathArgs.map((p) => repoPath(repo, p));
  const commit = source === undefined ? undefined : await resolveRevision(repo, source);
  const from = commit === undefined ? await indexFiles(repo) : await commitFiles(repo, commit);
  const origin = commit === undefined ? "the index" : abbrev((await git.readCommit({ ...where, oid: commit })).commit.tree);
  let updated = 0;
  const index = await indexFiles(repo);
  for (const [i, spec] of specs.entries()) {
    const known = [...from.keys(), ...(staged ? index.keys() : [])].some((p) => underPath(p, spec));
    if (!known) throw gitError(`error: pathspec '${pathArgs[i]}' did not match any file(s) known to git\n`);
  }
  const within = (path: string) => specs.some((spec) => underPath(path, spec));
  if (worktree) {
    for (const [path, version] of from) {
      if (!within(path)) continue;
      const current = await workFile(repo, path);
      if (current?.oid === version.oid && current.mode === version.mode) continue;
      await writeWorkFile(repo, path, version);
      updated++;
    }
  }
  if (staged) {
    // The index takes the source's version; paths the source lacks leave the index.
    const gone = [...index.keys()].filter((p) => within(p) && !from.has(p));
    if (gone.length > 0) await git.remove({ ...where, filepath: gone });
    for (const [path, version] of from) {
      if (!within(path)) continue;
      await git.updateIndex({ ...where, filepath: path, oid: version.oid, mode: version.mode, add: true, force: true });
    }
  }
  return { updated, from: origin };
}

/** `Updated 2 paths from the index`: git says it when paths were named without `--`. */
function updatedLine({ updated, from }: { updated: number; from: string }): string {
  return `Updated ${updated} path${updated === 1 ? "" : "s"} from ${from}\n`;
}

/** Switches to a branch or (detached) a commit, printing what git prints. */
async function switchTo(repo: Repo, target: string, out: Out, detach: boolean): Promise<number> {
  if (!detach && (await branchExists(repo, target))) {
    if (target === (await currentBranch(repo))) {
      out.out(await moveTo(repo, (await headOid(repo))!));
      out.err(`Already on '${target}'\n`);
      return 0;
    }
    const oid = await git.resolveRef({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, ref: `refs/heads/${target}` });
    out.out(await moveTo(repo, oid));
    await setHead(repo, { branch: target });
    out.err(`Switched to branch '${target}'\n`);
    return 0;
  }
  const oid = await resolveRevision(repo, target);
  out.out(await moveTo(repo, oid));
  const wasDetached = (await currentBranch(repo)) === undefined;
  await setHead(repo, { detach: oid });
  const { commit } = await git.readCommit({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid });
  out.err(
    wasDetached ? `HEAD is now at ${oid.slice(0, 7)} ${subjectOf(commit.message)}\n` : detachedAdvice(oid, subjectOf(commit.message)),
  );
  return 0;
}

/** `checkout -b`/`switch -c`: a new branch at `start` (HEAD by default), then onto it. */
async function newBranch(repo: Repo, name: string, start: string | undefined, force: boolean, out: Out): Promise<number> {
  if (start === undefined && !(await headOid(repo))) {
    if (!force && (await branchExists(repo, name))) throw new GitFatal(`a branch named '${name}' already exists`);
    await setHead(repo, { branch: name });
    out.err(`Switched to a new branch '${name}'\n`);
    return 0;
  }
  const oid = start === undefined ? undefined : await resolveRevision(repo, start);
  if (oid !== undefined && oid !== (await headOid(repo))) out.out(await moveTo(repo, oid));
  const existed = await branchExists(repo, name);
  await createBranch(repo, name, oid, force);
  await setHead(repo, { branch: name });
  out.err(existed ? `Switched to and reset branch '${name}'\n` : `Switched to a new branch '${name}'\n`);
  return 0;
}

/** -q: the work is done, the reports (switched, updated paths, carried changes) are dropped. */
const quietly = (args: string[], out: Out) => (args.includes("-q") || args.includes("--quiet") ? new Out() : out);

export async function checkout(args: string[], env: GitEnv, shown: Out): Promise<number> {
  const out = quietly(args, shown);
  let create: { name: string; force: boolean } | undefined;
  let detach = false;
  const before: string[] = [];
  const paths: string[] = [];
  let afterDashes = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (afterDashes) paths.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "-b" || arg === "-B") {
      const name = args[++i];
      if (!name) throw new GitFatal(`switch \`${arg.slice(1)}' requires a value`, 129);
      create = { name, force: arg === "-B" };
    } else if (arg === "--detach") detach = true;
    else if (arg === "-q" || arg === "--quiet" || arg === "-f" || arg === "--force") continue;
    else if (arg.startsWith("-"))
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git checkout (supported here: <branch>, -b <new>, -B <new>, --detach, [<commit>] -- <paths>)`,
        129,
      );
    else before.push(arg);
  }
  const repo = await findRepo(env);
  if (create) return newBranch(repo, create.name, before[0], create.force, out);
  if (afterDashes) {
    if (before.length > 1) throw new GitFatal("only one reference expected");
    await restorePaths(repo, paths, before[0], true, before[0] !== undefined);
    return 0;
  }
  if (before.length === 0) {
    if (!(await headOid(repo))) throw new GitFatal("You are on a branch yet to be born");
    return detach ? switchTo(repo, "HEAD", out, true) : 0;
  }
  const [first, ...rest] = before as [string, ...string[]];
  if ((await branchExists(repo, first)) || (await isRevision(repo, first))) {
    if (rest.length > 0) {
      out.err(updatedLine(await restorePaths(repo, rest, first, true, true)));
      return 0;
    }
    return switchTo(repo, first, out, detach);
  }
  out.err(updatedLine(await restorePaths(repo, before, undefined, true, false)));
  return 0;
}

export async function switchCommand(args: string[], env: GitEnv, shown: Out): Promise<number> {
  const out = quietly(args, shown);
  let create: { name: string; force: boolean } | undefined;
  let detach = false;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-c" || arg === "-C" || arg === "--create") {
      const name = args[++i];
      if (!name) throw new GitFatal(`switch \`${arg.replace(/^-+/, "")}' requires a value`, 129);
      create = { name, force: arg === "-C" };
    } else if (arg === "-d" || arg === "--detach") detach = true;
    else if (arg === "-q" || arg === "--quiet") continue;
    else if (arg.startsWith("-"))
      throw new GitFatal(`unknown option '${arg.replace(/^-+/, "")}' for git switch (supported here: <branch>, -c <new>, --detach)`, 129);
    else names.push(arg);
  }
  const repo = await findRepo(env);
  if (create) return newBranch(repo, create.name, names[0], create.force, out);
  const target = names[0];
  if (target === undefined) throw new GitFatal("missing branch or commit argument");
  if (!detach && !(await branchExists(repo, target))) {
    if (await isRevision(repo, target))
      throw new GitFatal(
        `a branch is expected, got commit '${target}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.`,
      );
    throw new GitFatal(`invalid reference: ${target}`);
  }
  return switchTo(repo, target, out, detach);
}

export async function restore(args: string[], env: GitEnv, _out: Out): Promise<number> {
  let staged = false;
  let worktree = false;
  let source: string | undefined;
  const paths: string[] = [];
  let afterDashes = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (afterDashes || !arg.startsWith("-")) paths.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "-S" || arg === "--staged") staged = true;
    else if (arg === "-W" || arg === "--worktree") worktree = true;
    else if (arg === "-s" || arg === "--source") source = args[++i];
    else if (arg.startsWith("--source=")) source = arg.slice("--source=".length);
    else if (arg === "-q" || arg === "--quiet") continue;
    else
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git restore (supported here: --staged, --worktree, --source=<commit>, <paths>)`,
        129,
      );
  }
  if (paths.length === 0) throw new GitFatal("you must specify path(s) to restore");
  if (!staged) worktree = true;
  const repo = await findRepo(env);
  // --staged alone restores the index from HEAD; the work tree, by default, from the index.
  if (staged && source === undefined) source = "HEAD";
  if (staged && !(await headOid(repo))) {
    const index = await indexFiles(repo);
    const specs = paths.map((p) => repoPath(repo, p));
    const gone = [...index.keys()].filter((p) => specs.some((s) => underPath(p, s)));
    if (gone.length > 0) await git.remove({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: gone });
    return 0;
  }
  if (worktree && staged) await restorePaths(repo, paths, source, true, true);
  else if (staged) await restorePaths(repo, paths, source, false, true);
  else await restorePaths(repo, paths, source, true, false);
  return 0;
}
