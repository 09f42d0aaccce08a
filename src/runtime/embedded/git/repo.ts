import git from "isomorphic-git";
import { dirname, join, relative, resolve } from "pathe";
import { isRuntimeError } from "../../errors.js";
import type { WorkspaceFs } from "../workspace-fs.js";
import type { GitFs } from "./git-fs.js";

/** A failure git reports as `fatal: ...` (exit 128 unless said otherwise). */
export class GitFatal extends Error {
  constructor(
    message: string,
    readonly exitCode = 128,
    /** The whole stderr text when it is not a plain `fatal:` line. */
    readonly raw?: string,
  ) {
    super(message);
  }
}

/** A failure git words itself (`error: ...` lines, advice), ending the command with `exitCode`. */
export function gitError(text: string, exitCode = 1): GitFatal {
  return new GitFatal(text.trim(), exitCode, text);
}

/** What every subcommand is handed: the files (both views), where it runs, and its environment. */
export interface GitEnv {
  fs: GitFs;
  files: WorkspaceFs;
  cwd: string;
  env: Map<string, string>;
  /** `-c key=value` options given before the subcommand. */
  overrides: Map<string, string>;
}

export interface Repo extends GitEnv {
  /** The work tree's root. */
  dir: string;
  gitdir: string;
}

/** The output a subcommand builds up. */
export class Out {
  stdout = "";
  stderr = "";
  out(text: string): void {
    this.stdout += text;
  }
  err(text: string): void {
    this.stderr += text;
  }
}

const NOT_A_REPO = "not a git repository (or any of the parent directories): .git";

/** Walks up from the cwd for a `.git` folder, as git does. */
export async function findRepo(env: GitEnv): Promise<Repo> {
  let dir = env.cwd;
  for (;;) {
    const stat = await env.files.stat(join(dir, ".git")).catch((error: unknown) => {
      if (isRuntimeError(error)) return undefined;
      throw error;
    });
    if (stat?.type === "directory") return { ...env, dir, gitdir: join(dir, ".git") };
    const parent = dirname(dir);
    if (parent === dir) throw new GitFatal(NOT_A_REPO);
    dir = parent;
  }
}

/** A path argument (relative to the cwd) as a path inside the repository; "" is its root. */
export function repoPath(repo: Repo, arg: string): string {
  const absolute = resolve(repo.cwd, arg);
  const inside = relative(repo.dir, absolute);
  if (inside === ".." || inside.startsWith("../") || inside.startsWith("/")) {
    throw new GitFatal(`${arg}: '${arg}' is outside repository at '${repo.dir}'`);
  }
  return inside === "." ? "" : inside;
}

/** A repository path as git shows it to a user in the cwd (`../a.txt`, `./`). */
export function shownPath(repo: Repo, path: string): string {
  const isDir = path.endsWith("/");
  const shown = relative(repo.cwd, join(repo.dir, path)) || ".";
  return isDir ? `${shown}/` : shown;
}

/** Whether `path` is `spec` or lies under it (spec "" is the whole repository). */
export function underPath(path: string, spec: string): boolean {
  return spec === "" || path === spec || path.startsWith(`${spec}/`);
}

export async function configValue(repo: Repo, key: string): Promise<string | undefined> {
  const override = repo.overrides.get(key.toLowerCase());
  if (override !== undefined) return override;
  const value: unknown = await git.getConfig({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, path: key });
  return value === undefined || value === null ? undefined : String(value);
}

/** The current branch name, or undefined when HEAD is detached. */
export async function currentBranch(repo: Repo): Promise<string | undefined> {
  const name = await git.currentBranch({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, fullname: false });
  return name ?? undefined;
}

/** The commit HEAD points at, or undefined before the first commit. */
export async function headOid(repo: Repo): Promise<string | undefined> {
  try {
    return await git.resolveRef({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, ref: "HEAD" });
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError) return undefined;
    throw error;
  }
}

export const abbrev = (oid: string) => oid.slice(0, 7);

function unknownRevision(spec: string): GitFatal {
  return new GitFatal(
    `ambiguous argument '${spec}': unknown revision or path not in the working tree.\n` +
      "Use '--' to separate paths from revisions, like this:\n" +
      "'git <command> [<revision>...] -- [<file>...]'",
  );
}

async function resolveBase(repo: Repo, name: string): Promise<string | undefined> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  if (name === "@") name = "HEAD";
  try {
    return await git.resolveRef({ ...where, ref: name });
  } catch {
    // not a ref: maybe an object name
  }
  if (/^[0-9a-f]{4,40}$/i.test(name)) {
    try {
      return await git.expandOid({ ...where, oid: name.toLowerCase() });
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A revision (`HEAD`, a branch, a tag, a hash, with `~N` and `^N` suffixes) as a commit id. */
export async function resolveRevision(repo: Repo, spec: string): Promise<string> {
  const match = /^(.*?)((?:[~^]\d*)*)$/.exec(spec);
  const base = match?.[1] ?? spec;
  let oid = base === "" ? undefined : await resolveBase(repo, base);
  if (oid === undefined) throw unknownRevision(spec);
  for (const step of (match?.[2] ?? "").match(/[~^]\d*/g) ?? []) {
    const count = step.length > 1 ? Number(step.slice(1)) : 1;
    const hops = step[0] === "~" ? count : 1;
    const parentIndex = step[0] === "^" ? count - 1 : 0;
    if (step[0] === "^" && count === 0) continue;
    for (let i = 0; i < hops; i++) {
      const { commit } = await git.readCommit({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid });
      const parent: string | undefined = commit.parent[i === hops - 1 ? parentIndex : 0];
      if (parent === undefined) throw unknownRevision(spec);
      oid = parent;
    }
  }
  return oid;
}

/** Whether `spec` names a revision (so that an argument can be told apart from a path). */
export async function isRevision(repo: Repo, spec: string): Promise<boolean> {
  return resolveRevision(repo, spec).then(
    () => true,
    () => false,
  );
}
