import git from "isomorphic-git";
import { join } from "pathe";
import { repoStatus } from "./changes.js";
import { findRepo, GitFatal, repoPath, underPath, type GitEnv, type Out, type Repo } from "./repo.js";

/** Stages what changed under `specs` (repository paths; [""] is everything): updates, removals and, unless `trackedOnly`, new files. */
export async function stage(repo: Repo, specs: string[], trackedOnly: boolean): Promise<void> {
  const status = await repoStatus(repo, specs);
  const within = (path: string) => specs.some((spec) => underPath(path, spec));
  const removed = status.changes.filter((c) => c.worktree === "D" && within(c.path)).map((c) => c.path);
  const updated = status.changes.filter((c) => c.worktree === "M" && within(c.path)).map((c) => c.path);
  const added = trackedOnly ? [] : status.untrackedFiles.filter(within);
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  if (removed.length > 0) await git.remove({ ...where, filepath: removed });
  if (updated.length + added.length > 0) await git.add({ ...where, filepath: [...updated, ...added] });
}

async function exists(repo: Repo, path: string): Promise<boolean> {
  return repo.files.lstat(join(repo.dir, path)).then(
    () => true,
    () => false,
  );
}

export async function add(args: string[], env: GitEnv, out: Out): Promise<number> {
  let all = false;
  let update = false;
  let force = false;
  const specs: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes || !arg.startsWith("-") || arg === "-") specs.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "-A" || arg === "--all") all = true;
    else if (arg === "-u" || arg === "--update") update = true;
    else if (arg === "-f" || arg === "--force") force = true;
    else if (arg === "-v" || arg === "--verbose" || arg === "--no-all" || arg === "--ignore-removal") continue;
    else throw new GitFatal(`unknown option '${arg.replace(/^-+/, "")}' for git add (supported here: -A, -u, -f, <paths>)`, 129);
  }
  const repo = await findRepo(env);
  if (specs.length === 0 && !all && !update) {
    out.err(
      "Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\n" +
        'hint: Turn this message off by running\nhint: "git config advice.addEmptyPathspec false"\n',
    );
    return 0;
  }
  const paths = specs.length > 0 ? specs.map((spec) => repoPath(repo, spec)) : [""];
  const tracked = new Set(await git.listFiles({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir }));
  const ignored: string[] = [];
  for (const [i, path] of paths.entries()) {
    if (path === "" || [...tracked].some((file) => underPath(file, path))) continue;
    if (!(await exists(repo, path))) throw new GitFatal(`pathspec '${specs[i]}' did not match any files`);
    if (!force && (await git.isIgnored({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: path }))) ignored.push(specs[i]!);
  }
  if (force) {
    const loose = paths.filter((p) => p !== "");
    if (loose.length > 0) await git.add({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: loose, force: true });
  }
  await stage(repo, paths, update);
  if (ignored.length > 0) {
    out.err(
      `The following paths are ignored by one of your .gitignore files:\n${ignored.join("\n")}\n` +
        'hint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"\n',
    );
    return 1;
  }
  return 0;
}
