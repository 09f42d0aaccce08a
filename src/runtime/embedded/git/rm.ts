import git from "isomorphic-git";
import { findRepo, GitFatal, headOid, repoPath, underPath, type GitEnv, type Out } from "./repo.js";
import { removeWorkFile } from "./switch-to.js";
import { commitFiles, indexFiles, workFile } from "./trees.js";

export async function rm(args: string[], env: GitEnv, out: Out): Promise<number> {
  let cached = false;
  let recursive = false;
  let force = false;
  let quiet = false;
  const pathArgs: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes || !arg.startsWith("-")) pathArgs.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "--cached") cached = true;
    else if (arg === "-r") recursive = true;
    else if (arg === "-f" || arg === "--force") force = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (/^-[rfq]+$/.test(arg)) {
      recursive ||= arg.includes("r");
      force ||= arg.includes("f");
      quiet ||= arg.includes("q");
    } else throw new GitFatal(`unknown option '${arg.replace(/^-+/, "")}' for git rm (supported here: --cached, -r, -f, -q, <paths>)`, 129);
  }
  if (pathArgs.length === 0) throw new GitFatal("No pathspec was given. Which files should I remove?");
  const repo = await findRepo(env);
  const index = await indexFiles(repo);
  const head = await commitFiles(repo, await headOid(repo));
  const chosen: string[] = [];
  for (const arg of pathArgs) {
    const spec = repoPath(repo, arg);
    const matches = [...index.keys()].filter((path) => underPath(path, spec));
    if (matches.length === 0) throw new GitFatal(`pathspec '${arg}' did not match any files`);
    if (!recursive && !matches.includes(spec)) throw new GitFatal(`not removing '${arg}' recursively without -r`);
    chosen.push(...matches.filter((m) => !chosen.includes(m)));
  }
  chosen.sort();
  if (!force) {
    // git keeps content that would exist nowhere else: staged changes, or (without --cached) local edits.
    const both: string[] = [];
    const staged: string[] = [];
    const local: string[] = [];
    for (const path of chosen) {
      const inIndex = index.get(path)!;
      const work = await workFile(repo, path);
      const stagedChange = head.get(path)?.oid !== inIndex.oid;
      const localChange = work !== undefined && (work.oid !== inIndex.oid || work.mode !== inIndex.mode);
      if (stagedChange && localChange) both.push(path);
      else if (!cached && stagedChange) staged.push(path);
      else if (!cached && localChange) local.push(path);
    }
    const problem = (kind: string, list: string[], advice: string) =>
      `error: the following file${list.length === 1 ? " has" : "s have"} ${kind}:\n${list.map((p) => `    ${p}\n`).join("")}${advice}\n`;
    const keep = "(use --cached to keep the file, or -f to force removal)";
    let errors = "";
    if (both.length > 0) errors += problem("staged content different from both the\nfile and the HEAD", both, "(use -f to force removal)");
    if (staged.length > 0) errors += problem("changes staged in the index", staged, keep);
    if (local.length > 0) errors += problem("local modifications", local, keep);
    if (errors !== "") {
      out.err(errors);
      return 1;
    }
  }
  await git.remove({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: chosen });
  for (const path of chosen) {
    if (!cached) await removeWorkFile(repo, path);
    if (!quiet) out.out(`rm '${path}'\n`);
  }
  return 0;
}
