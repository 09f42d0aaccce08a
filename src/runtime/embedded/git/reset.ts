import git from "isomorphic-git";
import { repoStatus } from "./changes.js";
import { subjectOf } from "./commit.js";
import {
  abbrev,
  currentBranch,
  findRepo,
  GitFatal,
  headOid,
  isRevision,
  repoPath,
  resolveRevision,
  underPath,
  type GitEnv,
  type Out,
  type Repo,
} from "./repo.js";
import { removeWorkFile, setHead, writeWorkFile } from "./switch-to.js";
import { commitFiles, indexFiles, workFile, type FileSet } from "./trees.js";

/** Makes the index hold `files` for the paths `within` accepts (entries `files` lacks leave the index). */
async function resetIndex(repo: Repo, files: FileSet, within: (path: string) => boolean): Promise<void> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const index = await indexFiles(repo);
  const gone = [...index.keys()].filter((p) => within(p) && !files.has(p));
  if (gone.length > 0) await git.remove({ ...where, filepath: gone });
  for (const [path, version] of files) {
    if (!within(path)) continue;
    const current = index.get(path);
    if (current?.oid === version.oid && current.mode === version.mode) continue;
    await git.updateIndex({ ...where, filepath: path, oid: version.oid, mode: version.mode, add: true, force: true });
  }
}

/** `Unstaged changes after reset:` and the `M\tpath` lines git lists after a mixed reset. */
async function unstagedReport(repo: Repo): Promise<string> {
  const lines = (await repoStatus(repo)).changes.filter((c) => c.worktree !== " ").map((c) => `${c.worktree}\t${c.path}\n`);
  return lines.length > 0 ? `Unstaged changes after reset:\n${lines.join("")}` : "";
}

export async function reset(args: string[], env: GitEnv, out: Out): Promise<number> {
  let mode: "soft" | "mixed" | "hard" | undefined;
  let quiet = false;
  const before: string[] = [];
  const paths: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes) paths.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "--soft" || arg === "--mixed" || arg === "--hard") mode = arg.slice(2) as "soft" | "mixed" | "hard";
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg.startsWith("-"))
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git reset (supported here: --soft, --mixed, --hard, -q, [<commit>] [--] <paths>)`,
        129,
      );
    else before.push(arg);
  }
  const repo = await findRepo(env);
  const head = await headOid(repo);
  let revision: string | undefined;
  if (before.length > 0 && (afterDashes || (await isRevision(repo, before[0]!)))) revision = before.shift();
  paths.unshift(...before);
  const target = revision !== undefined ? await resolveRevision(repo, revision) : head;
  const targetFiles = await commitFiles(repo, target);

  if (paths.length > 0) {
    if (mode === "soft" || mode === "hard") throw new GitFatal(`Cannot do ${mode} reset with paths.`);
    const specs = paths.map((p) => repoPath(repo, p));
    await resetIndex(repo, targetFiles, (path) => specs.some((spec) => underPath(path, spec)));
    if (!quiet) out.out(await unstagedReport(repo));
    return 0;
  }

  if (target !== undefined && target !== head) {
    const branch = await currentBranch(repo);
    if (branch)
      await git.writeRef({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, ref: `refs/heads/${branch}`, value: target, force: true });
    else await setHead(repo, { detach: target });
  }
  if (mode === "soft") return 0;
  const index = await indexFiles(repo);
  await resetIndex(repo, targetFiles, () => true);
  if (mode !== "hard") {
    if (!quiet) out.out(await unstagedReport(repo));
    return 0;
  }
  // --hard: tracked files (in the old index or the target) take the target's content; untracked ones stay.
  const headFiles = await commitFiles(repo, head);
  for (const path of new Set([...index.keys(), ...headFiles.keys(), ...targetFiles.keys()])) {
    const version = targetFiles.get(path);
    const current = await workFile(repo, path);
    if (version) {
      if (current?.oid !== version.oid || current.mode !== version.mode) await writeWorkFile(repo, path, version);
    } else if (current) {
      await removeWorkFile(repo, path);
    }
  }
  if (!quiet && target !== undefined) {
    const { commit } = await git.readCommit({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid: target });
    out.out(`HEAD is now at ${abbrev(target)} ${subjectOf(commit.message)}\n`);
  }
  return 0;
}
