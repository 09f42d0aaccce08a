import git from "isomorphic-git";
import { exactRenames } from "./renames.js";
import { headOid, type Repo } from "./repo.js";
import { commitFiles, indexFiles } from "./trees.js";

/**
 * One tracked path's state as `git status -s` letters: `index` compares HEAD with the index,
 * `worktree` the index with the files (' ' unchanged, M, A, D).
 */
interface Change {
  path: string;
  index: " " | "M" | "A" | "D" | "R";
  worktree: " " | "M" | "D";
  /** For a rename (index "R"): where the content was. */
  from?: string;
}

export interface RepoStatus {
  changes: Change[];
  /** Untracked paths, folders holding no tracked file collapsed to `dir/` as git shows them. */
  untracked: string[];
  /** Every untracked file, uncollapsed (what `git add -A` would add). */
  untrackedFiles: string[];
}

type Row = [string, 0 | 1, 0 | 1 | 2, 0 | 1 | 2 | 3];

function letters(head: number, workdir: number, stage: number): Pick<Change, "index" | "worktree"> | undefined {
  const index: Change["index"] = stage === 0 ? (head === 1 ? "D" : " ") : head === 0 ? "A" : stage === 1 ? " " : "M";
  let worktree: Change["worktree"] = " ";
  if (stage !== 0) {
    if (workdir === 0) worktree = "D";
    else if (stage === 1 ? workdir === 2 : stage === 3) worktree = "M";
  }
  if (index === " " && worktree === " ") return undefined;
  return { index, worktree };
}

/** Untracked files under folders that hold nothing tracked collapse into the topmost such folder. */
function collapse(untracked: string[], tracked: string[]): string[] {
  const trackedDirs = new Set<string>();
  for (const path of tracked) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) trackedDirs.add(parts.slice(0, i).join("/"));
  }
  const shown = new Set<string>();
  for (const path of untracked) {
    const parts = path.split("/");
    let entry = path;
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!trackedDirs.has(dir)) {
        entry = `${dir}/`;
        break;
      }
    }
    shown.add(entry);
  }
  return [...shown].sort();
}

/** Staged removals and additions of the same content become renames, as git shows them. */
async function stagedRenames(repo: Repo, changes: Change[]): Promise<Change[]> {
  const removed = changes.filter((c) => c.index === "D");
  const added = changes.filter((c) => c.index === "A");
  if (removed.length === 0 || added.length === 0) return changes;
  const head = await commitFiles(repo, await headOid(repo));
  const index = await indexFiles(repo);
  const renames = exactRenames(
    removed.map((c) => ({ path: c.path, oid: head.get(c.path)!.oid })),
    added.map((c) => ({ path: c.path, oid: index.get(c.path)!.oid })),
  );
  const sources = new Set(renames.values());
  return changes
    .filter((c) => !(c.index === "D" && sources.has(c.path)))
    .map((c): Change => (c.index === "A" && renames.has(c.path) ? { ...c, index: "R", from: renames.get(c.path)! } : c));
}

/** HEAD, the index and the files compared, limited to `paths` (repository paths) when given. */
export async function repoStatus(repo: Repo, paths?: string[]): Promise<RepoStatus> {
  const rows = (await git.statusMatrix({
    fs: repo.fs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    ...(paths && paths.length > 0 && !paths.includes("") ? { filepaths: paths } : {}),
  })) as Row[];
  const changes: Change[] = [];
  const untrackedFiles: string[] = [];
  const tracked: string[] = [];
  for (const [path, head, workdir, stage] of rows) {
    if (stage !== 0) tracked.push(path);
    const change = letters(head, workdir, stage);
    if (change) changes.push({ path, ...change });
    if (stage === 0 && workdir !== 0) untrackedFiles.push(path);
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes: await stagedRenames(repo, changes), untracked: collapse(untrackedFiles, tracked), untrackedFiles };
}
