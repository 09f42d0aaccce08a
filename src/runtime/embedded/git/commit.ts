import git from "isomorphic-git";
import { resolve } from "pathe";
import { stage } from "./add.js";
import { repoStatus } from "./changes.js";
import { summaryLine } from "./diff.js";
import { formatDefaultDate, signature } from "./identity.js";
import { quotePath } from "./quote.js";
import { exactRenames, renameLabel } from "./renames.js";
import { abbrev, currentBranch, findRepo, GitFatal, headOid, type GitEnv, type Out } from "./repo.js";
import { longStatus } from "./status.js";
import { commitFiles, indexFiles } from "./trees.js";
import { lineCounts } from "./unified.js";

/** git's `whitespace` clean-up of a message given with -m: trailing spaces, and blank lines at the ends or doubled, go. */
function cleanMessage(text: string): string {
  const lines = text.split("\n").map((line) => line.replace(/\s+$/, ""));
  const kept: string[] = [];
  for (const line of lines) {
    if (line === "" && (kept.length === 0 || kept[kept.length - 1] === "")) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  return kept.length === 0 ? "" : `${kept.join("\n")}\n`;
}

/** The subject git shows for a message: its first paragraph on one line. */
export function subjectOf(message: string): string {
  const paragraph = message.replace(/^\n+/, "").split(/\n\s*\n/)[0] ?? "";
  return paragraph
    .split("\n")
    .map((line) => line.trim())
    .join(" ")
    .trim();
}

const modeText = (mode: number) => mode.toString(8);

export async function commit(args: string[], env: GitEnv, out: Out): Promise<number> {
  const messages: string[] = [];
  let all = false;
  let allowEmpty = false;
  let amend = false;
  let quiet = false;
  let author: { name: string; email: string } | undefined;
  let messageFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new GitFatal(`switch \`${arg.replace(/^-+/, "")}' requires a value`, 129);
      return next;
    };
    if (arg === "-m" || arg === "--message") messages.push(value());
    else if (arg.startsWith("--message=")) messages.push(arg.slice("--message=".length));
    else if (/^-[aqv]*m$/.test(arg) && arg.length > 2) {
      if (arg.includes("a")) all = true;
      if (arg.includes("q")) quiet = true;
      messages.push(value());
    } else if (/^-m./.test(arg)) messages.push(arg.slice(2));
    else if (arg === "-F" || arg === "--file") messageFile = value();
    else if (arg.startsWith("--file=")) messageFile = arg.slice("--file=".length);
    else if (arg === "-a" || arg === "--all") all = true;
    else if (arg === "--allow-empty") allowEmpty = true;
    else if (arg === "--amend") amend = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "--no-verify" || arg === "-n" || arg === "--no-edit" || arg === "--allow-empty-message" || arg === "-v") continue;
    else if (arg === "--author" || arg.startsWith("--author=")) {
      const text = arg === "--author" ? value() : arg.slice("--author=".length);
      const match = /^(.*?)\s*<([^>]*)>$/.exec(text);
      if (!match) throw new GitFatal(`--author '${text}' is not 'Name <email>' and matches no existing author`);
      author = { name: match[1]!, email: match[2]! };
    } else if (arg === "--" || !arg.startsWith("-")) {
      throw new GitFatal(
        "committing only named paths is not offered by the embedded shell's git: stage them with `git add <paths>`, then `git commit -m <message>`",
      );
    } else {
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git commit (supported here: -m, -a, -F, --amend, --allow-empty, --author, -q)`,
        129,
      );
    }
  }
  const repo = await findRepo(env);
  if (messageFile !== undefined) {
    const bytes = messageFile === "-" ? new Uint8Array() : await repo.files.readFile(resolve(repo.cwd, messageFile));
    messages.push(new TextDecoder().decode(bytes));
  }
  const head = await headOid(repo);
  if (amend && !head) throw new GitFatal("You have nothing to amend.");
  let message = cleanMessage(messages.join("\n\n"));
  if (message === "" && amend && head) {
    message = (await git.readCommit({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid: head })).commit.message;
  }
  if (all) await stage(repo, [""], true);

  const parentTree = await commitFiles(
    repo,
    amend && head ? (await git.readCommit({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid: head })).commit.parent[0] : head,
  );
  const index = await indexFiles(repo);
  const paths = [...new Set([...parentTree.keys(), ...index.keys()])].sort();
  const touched = paths.filter((p) => parentTree.get(p)?.oid !== index.get(p)?.oid || parentTree.get(p)?.mode !== index.get(p)?.mode);
  if (touched.length === 0 && !allowEmpty && !amend) {
    out.out(await longStatus(repo, await repoStatus(repo)));
    return 1;
  }
  if (message === "") {
    out.err(
      messages.length > 0
        ? "Aborting commit due to empty commit message.\n"
        : 'error: there is no editor in the embedded shell: give the message with -m "message" (or -F <file>).\n',
    );
    return 1;
  }

  // An amended commit keeps its author, as git does; only the committer is new.
  const authorSig =
    amend && head
      ? (await git.readCommit({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid: head })).commit.author
      : await signature(repo, "AUTHOR");
  const finalAuthor = author ? { ...authorSig, ...author } : authorSig;
  const committer = await signature(repo, "COMMITTER");
  const oid = await git.commit({
    fs: repo.fs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    message,
    author: finalAuthor,
    committer,
    ...(amend ? { amend: true } : {}),
  });
  if (quiet) return 0;

  const branch = await currentBranch(repo);
  const root = amend ? (await git.readCommit({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, oid })).commit.parent.length === 0 : !head;
  out.out(`[${branch ?? "detached HEAD"}${root ? " (root-commit)" : ""} ${abbrev(oid)}] ${subjectOf(message)}\n`);
  // git names the author when it is not the committer, and the kept author date of an amend.
  if (finalAuthor.name !== committer.name || finalAuthor.email !== committer.email)
    out.out(` Author: ${finalAuthor.name} <${finalAuthor.email}>\n`);
  if (amend) out.out(` Date: ${formatDefaultDate(finalAuthor.timestamp, -finalAuthor.timezoneOffset)}\n`);
  if (touched.length === 0 && !amend) return 0;
  let insertions = 0;
  let deletions = 0;
  let modes = "";
  const renames = exactRenames(
    touched.filter((p) => !index.has(p)).map((p) => ({ path: p, oid: parentTree.get(p)!.oid })),
    touched.filter((p) => !parentTree.has(p)).map((p) => ({ path: p, oid: index.get(p)!.oid })),
  );
  const sources = new Set(renames.values());
  const files = touched.filter((p) => !sources.has(p));
  for (const path of files) {
    const from = renames.get(path);
    if (from !== undefined) {
      modes += ` rename ${renameLabel(from, path)} (100%)\n`;
      continue;
    }
    const before = parentTree.get(path);
    const after = index.get(path);
    const counts = await lineCounts(before, after);
    insertions += counts.insertions;
    deletions += counts.deletions;
    if (!before) modes += ` create mode ${modeText(after!.mode)} ${quotePath(path)}\n`;
    else if (!after) modes += ` delete mode ${modeText(before.mode)} ${quotePath(path)}\n`;
    else if (before.mode !== after.mode) modes += ` mode change ${modeText(before.mode)} => ${modeText(after.mode)} ${quotePath(path)}\n`;
  }
  out.out(summaryLine(files.length, insertions, deletions) + modes);
  return 0;
}
