import { repoStatus, type RepoStatus } from "./changes.js";
import { quotePath } from "./quote.js";
import { abbrev, currentBranch, findRepo, GitFatal, headOid, Out, repoPath, shownPath, type GitEnv, type Repo } from "./repo.js";

const labels: Record<string, string> = { A: "new file:", M: "modified:", D: "deleted:", R: "renamed:" };
const label = (letter: string) => (labels[letter] ?? "unknown:").padEnd(12);

/** The header line git starts both long and `-b` short output with. */
async function branchLine(repo: Repo): Promise<{ branch: string | undefined; head: string | undefined }> {
  return { branch: await currentBranch(repo), head: await headOid(repo) };
}

/** `git status` in its long form, as it also appears when `git commit` has nothing to commit. */
export async function longStatus(repo: Repo, status: RepoStatus): Promise<string> {
  const { branch, head } = await branchLine(repo);
  let text = branch ? `On branch ${branch}\n` : `HEAD detached at ${abbrev(head ?? "")}\n`;
  if (!head) text += "\nNo commits yet\n\n";
  const staged = status.changes.filter((c) => c.index !== " ");
  const unstaged = status.changes.filter((c) => c.worktree !== " ");
  if (staged.length > 0) {
    text += "Changes to be committed:\n";
    text += head ? '  (use "git restore --staged <file>..." to unstage)\n' : '  (use "git rm --cached <file>..." to unstage)\n';
    for (const c of staged) {
      const from = c.from === undefined ? "" : `${quotePath(shownPath(repo, c.from))} -> `;
      text += `\t${label(c.index)}${from}${quotePath(shownPath(repo, c.path))}\n`;
    }
    text += "\n";
  }
  if (unstaged.length > 0) {
    const removals = unstaged.some((c) => c.worktree === "D");
    text += "Changes not staged for commit:\n";
    text += `  (use "git ${removals ? "add/rm" : "add"} <file>..." to update what will be committed)\n`;
    text += '  (use "git restore <file>..." to discard changes in working directory)\n';
    for (const c of unstaged) text += `\t${label(c.worktree)}${quotePath(shownPath(repo, c.path))}\n`;
    text += "\n";
  }
  if (status.untracked.length > 0) {
    text += "Untracked files:\n";
    text += '  (use "git add <file>..." to include in what will be committed)\n';
    for (const path of status.untracked) text += `\t${quotePath(shownPath(repo, path))}\n`;
    text += "\n";
  }
  if (staged.length > 0) return text;
  if (unstaged.length > 0) return `${text}no changes added to commit (use "git add" and/or "git commit -a")\n`;
  if (status.untracked.length > 0) return `${text}nothing added to commit but untracked files present (use "git add" to track)\n`;
  return head
    ? `${text}nothing to commit, working tree clean\n`
    : `${text}nothing to commit (create/copy files and use "git add" to track)\n`;
}

function shortLines(repo: Repo, status: RepoStatus, porcelain: boolean): string {
  const show = (path: string) => quotePath(porcelain ? path : shownPath(repo, path), { spaces: true });
  let text = "";
  for (const c of status.changes) text += `${c.index}${c.worktree} ${c.from === undefined ? "" : `${show(c.from)} -> `}${show(c.path)}\n`;
  for (const path of status.untracked) text += `?? ${show(path)}\n`;
  return text;
}

export async function status(args: string[], env: GitEnv, out: Out): Promise<number> {
  let format: "long" | "short" | "porcelain" = "long";
  let showBranch = false;
  const paths: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes || !arg.startsWith("-")) paths.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "-s" || arg === "--short") format = format === "porcelain" ? format : "short";
    else if (arg === "--porcelain" || arg === "--porcelain=v1") format = "porcelain";
    else if (arg === "-b" || arg === "--branch") showBranch = true;
    else if (arg === "--long") format = "long";
    else if (arg === "-sb" || arg === "-bs") {
      format = "short";
      showBranch = true;
    } else if (/^-u|^--untracked-files/.test(arg) || arg === "--no-renames" || arg === "--renames") continue;
    else
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git status (supported here: -s, --short, --porcelain, -b, --long)`,
        129,
      );
  }
  const repo = await findRepo(env);
  const status = await repoStatus(
    repo,
    paths.map((p) => repoPath(repo, p)),
  );
  if (format === "long") {
    out.out(await longStatus(repo, status));
    return 0;
  }
  if (showBranch) {
    const { branch, head } = await branchLine(repo);
    out.out(branch ? (head ? `## ${branch}\n` : `## No commits yet on ${branch}\n`) : "## HEAD (no branch)\n");
  }
  out.out(shortLines(repo, status, format === "porcelain"));
  return 0;
}
