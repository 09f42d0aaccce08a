import git from "isomorphic-git";
import { subjectOf } from "./commit.js";
import { abbrev, currentBranch, findRepo, GitFatal, headOid, resolveRevision, type GitEnv, type Out, type Repo } from "./repo.js";
import { assertBranchName, branchExists } from "./switch-to.js";

async function list(repo: Repo, verbose: boolean): Promise<string> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const current = await currentBranch(repo);
  const head = await headOid(repo);
  const rows: { name: string; current: boolean; oid: string }[] = [];
  if (!current && head) rows.push({ name: `(HEAD detached at ${abbrev(head)})`, current: true, oid: head });
  for (const name of (await git.listBranches(where)).sort()) {
    rows.push({ name, current: name === current, oid: await git.resolveRef({ ...where, ref: `refs/heads/${name}` }) });
  }
  const width = Math.max(0, ...rows.map((r) => r.name.length));
  let text = "";
  for (const row of rows) {
    const marker = row.current ? "* " : "  ";
    if (!verbose) {
      text += `${marker}${row.name}\n`;
      continue;
    }
    const { commit } = await git.readCommit({ ...where, oid: row.oid });
    text += `${marker}${row.name.padEnd(width)} ${abbrev(row.oid)} ${subjectOf(commit.message)}\n`;
  }
  return text;
}

async function remove(repo: Repo, names: string[], force: boolean, out: Out): Promise<number> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const current = await currentBranch(repo);
  const head = await headOid(repo);
  let status = 0;
  for (const name of names) {
    if (!(await branchExists(repo, name))) {
      out.err(`error: branch '${name}' not found.\n`);
      status = 1;
      continue;
    }
    if (name === current) {
      out.err(`error: Cannot delete branch '${name}' checked out at '${repo.dir}'\n`);
      status = 1;
      continue;
    }
    const oid = await git.resolveRef({ ...where, ref: `refs/heads/${name}` });
    const merged = head !== undefined && (oid === head || (await git.isDescendent({ ...where, oid: head, ancestor: oid, depth: -1 })));
    if (!force && !merged) {
      out.err(`error: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.\n`);
      status = 1;
      continue;
    }
    await git.deleteBranch({ ...where, ref: name });
    out.out(`Deleted branch ${name} (was ${abbrev(oid)}).\n`);
  }
  return status;
}

export async function createBranch(repo: Repo, name: string, start: string | undefined, force = false): Promise<string> {
  assertBranchName(name);
  if (!force && (await branchExists(repo, name))) throw new GitFatal(`a branch named '${name}' already exists`);
  let oid: string;
  if (start === undefined) {
    const head = await headOid(repo);
    if (!head) throw new GitFatal(`not a valid object name: '${(await currentBranch(repo)) ?? "HEAD"}'`);
    oid = head;
  } else {
    oid = await resolveRevision(repo, start).catch(() => {
      throw new GitFatal(`not a valid object name: '${start}'`);
    });
  }
  await git.writeRef({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, ref: `refs/heads/${name}`, value: oid, force: true });
  return oid;
}

export async function branch(args: string[], env: GitEnv, out: Out): Promise<number> {
  let mode: "list" | "delete" | "force-delete" | "rename" | "show-current" | "create" = "list";
  let verbose = false;
  let force = false;
  const names: string[] = [];
  for (const arg of args) {
    if (arg === "-d" || arg === "--delete") mode = "delete";
    else if (arg === "-D") mode = "force-delete";
    else if (arg === "-m" || arg === "-M" || arg === "--move") mode = "rename";
    else if (arg === "--show-current") mode = "show-current";
    else if (arg === "-v" || arg === "-vv" || arg === "--verbose") verbose = true;
    else if (arg === "-f" || arg === "--force") force = true;
    else if (arg === "-l" || arg === "--list" || arg === "-a" || arg === "--all" || /^--(no-)?color/.test(arg)) continue;
    else if (arg.startsWith("-")) {
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git branch (supported here: -v, -d, -D, -m, -f, --show-current, --list)`,
        129,
      );
    } else names.push(arg);
  }
  if (mode === "delete" && force) mode = "force-delete";
  const repo = await findRepo(env);
  switch (mode) {
    case "show-current":
      out.out(`${(await currentBranch(repo)) ?? ""}\n`.replace(/^\n$/, ""));
      return 0;
    case "delete":
    case "force-delete":
      if (names.length === 0) throw new GitFatal("branch name required");
      return remove(repo, names, mode === "force-delete", out);
    case "rename": {
      const [oldName, newName] = names.length >= 2 ? [names[0]!, names[1]!] : [await currentBranch(repo), names[0]];
      if (!oldName || !newName) throw new GitFatal("branch name required");
      assertBranchName(newName);
      if (!(await branchExists(repo, oldName))) throw new GitFatal(`no branch named '${oldName}'`);
      if (await branchExists(repo, newName)) throw new GitFatal(`a branch named '${newName}' already exists`);
      await git.renameBranch({
        fs: repo.fs,
        dir: repo.dir,
        gitdir: repo.gitdir,
        oldref: oldName,
        ref: newName,
        checkout: oldName === (await currentBranch(repo)),
      });
      return 0;
    }
    default:
      if (names.length === 0) {
        out.out(await list(repo, verbose));
        return 0;
      }
      await createBranch(repo, names[0]!, names[1], force);
      return 0;
  }
}
