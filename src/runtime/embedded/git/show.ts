import git from "isomorphic-git";
import { commitChanges, type DiffFormat } from "./diff.js";
import { formatCommit, parseFormat, type CommitFormat } from "./log.js";
import { findRepo, GitFatal, repoPath, resolveRevision, type GitEnv, type Out } from "./repo.js";
import { commitFiles } from "./trees.js";

export async function show(args: string[], env: GitEnv, out: Out): Promise<number> {
  let diffFormat: DiffFormat | "none" = "patch";
  let format: CommitFormat = { kind: "medium" };
  const objects: string[] = [];
  for (const arg of args) {
    if (arg === "-s" || arg === "--no-patch") diffFormat = "none";
    else if (arg === "--stat") diffFormat = "stat";
    else if (arg === "--name-only") diffFormat = "name-only";
    else if (arg === "--name-status") diffFormat = "name-status";
    else if (arg === "--oneline") format = { kind: "oneline" };
    else if (arg.startsWith("--format=") || arg.startsWith("--pretty=")) format = parseFormat(arg.slice(9));
    else if (/^--(no-)?(decorate|color)(=.*)?$|^-p$|^--patch$/.test(arg)) continue;
    else if (arg.startsWith("-")) {
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git show (supported here: -s, --stat, --name-only, --name-status, --oneline, --format=, <commit>, <commit>:<path>)`,
        129,
      );
    } else objects.push(arg);
  }
  const repo = await findRepo(env);
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const shown: string[] = [];
  for (const object of objects.length > 0 ? objects : ["HEAD"]) {
    const colon = object.indexOf(":");
    if (colon >= 0) {
      // <commit>:<path> is that file's content in that commit (a path from the root; ./ from the cwd).
      const rev = object.slice(0, colon) || "HEAD";
      const rawPath = object.slice(colon + 1);
      const path = rawPath.startsWith("./") || rawPath.startsWith("../") ? repoPath(repo, rawPath) : rawPath.replace(/^\/+/, "");
      const version = (await commitFiles(repo, await resolveRevision(repo, rev))).get(path);
      if (!version) throw new GitFatal(`path '${path}' does not exist in '${rev}'`);
      shown.push(new TextDecoder().decode(await version.bytes()));
      continue;
    }
    const oid = await resolveRevision(repo, object);
    const entry = await git.readCommit({ ...where, oid });
    let text = formatCommit(entry, format);
    if (diffFormat !== "none") {
      const changes = await commitChanges(repo, { oid, parents: entry.commit.parent }, diffFormat);
      if (changes !== "") text += (format.kind === "oneline" ? "" : "\n") + changes;
    }
    shown.push(text);
  }
  out.out(shown.join(""));
  return 0;
}
