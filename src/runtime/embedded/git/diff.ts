import { join } from "pathe";
import { repoStatus } from "./changes.js";
import { prefixedPath, quotePath } from "./quote.js";
import { exactRenames, renameLabel } from "./renames.js";
import { findRepo, GitFatal, headOid, isRevision, repoPath, resolveRevision, underPath, type GitEnv, type Out, type Repo } from "./repo.js";
import { commitFiles, indexFiles, workFile, type FileSet, type FileVersion } from "./trees.js";
import { fileDiff } from "./unified.js";

type Side = { kind: "commit"; oid: string | undefined } | { kind: "index" } | { kind: "work" };

interface DiffOptions {
  cached: boolean;
  format: "patch" | "name-only" | "name-status" | "stat";
  quiet: boolean;
  exitCode: boolean;
  context: number;
}

async function filesOf(repo: Repo, side: Side): Promise<FileSet | undefined> {
  if (side.kind === "commit") return commitFiles(repo, side.oid);
  if (side.kind === "index") return indexFiles(repo);
  return undefined;
}

interface StatRow {
  /** The name as shown: quoted, or a rename's `a => b`. */
  path: string;
  insertions: number;
  deletions: number;
  /** Sizes in bytes, for a binary file. */
  binary?: { before: number; after: number };
}

/** `a.txt | 2 +-` lines and the summary, as `git diff --stat` prints them (without scaling wide bars). */
function statText(rows: StatRow[]): string {
  if (rows.length === 0) return "";
  const nameWidth = Math.max(...rows.map((r) => r.path.length));
  const countWidth = Math.max(...rows.map((r) => (r.binary ? 3 : String(r.insertions + r.deletions).length)));
  let text = "";
  let insertions = 0;
  let deletions = 0;
  for (const r of rows) {
    insertions += r.insertions;
    deletions += r.deletions;
    const total = r.insertions + r.deletions;
    let bar: string;
    if (r.binary) bar = r.binary.before === 0 && r.binary.after === 0 ? "Bin" : `Bin ${r.binary.before} -> ${r.binary.after} bytes`;
    else bar = `${String(total).padStart(countWidth)}${total > 0 ? " " : ""}${"+".repeat(r.insertions)}${"-".repeat(r.deletions)}`;
    text += ` ${r.path.padEnd(nameWidth)} | ${r.binary ? bar.padStart(bar.length + countWidth - 3) : bar}\n`;
  }
  return text + summaryLine(rows.length, insertions, deletions);
}

/** ` 2 files changed, 3 insertions(+), 1 deletion(-)` with git's rules for leaving out a zero. */
export function summaryLine(files: number, insertions: number, deletions: number): string {
  if (files === 0) return " 0 files changed\n";
  let text = ` ${files} file${files === 1 ? "" : "s"} changed`;
  if (insertions || deletions === 0) text += `, ${insertions} insertion${insertions === 1 ? "" : "s"}(+)`;
  if (deletions || insertions === 0) text += `, ${deletions} deletion${deletions === 1 ? "" : "s"}(-)`;
  return `${text}\n`;
}

export type DiffFormat = DiffOptions["format"];

/** The changes to `paths` between two sides, in one of git's diff formats; `changed` counts files that differ. */
async function renderChanges(
  paths: string[],
  before: (path: string) => FileVersion | undefined,
  after: (path: string) => Promise<FileVersion | undefined>,
  options: { format: DiffFormat; context: number },
): Promise<{ text: string; changed: number }> {
  const pairs: { path: string; from?: string; old: FileVersion | undefined; now: FileVersion | undefined }[] = [];
  for (const path of paths) {
    const old = before(path);
    const now = await after(path);
    if (old?.oid !== now?.oid || old?.mode !== now?.mode) pairs.push({ path, old, now });
  }
  const removed = pairs.filter((p) => p.old && !p.now).map((p) => ({ path: p.path, oid: p.old!.oid }));
  const added = pairs.filter((p) => !p.old && p.now).map((p) => ({ path: p.path, oid: p.now!.oid }));
  const renames = removed.length > 0 && added.length > 0 ? exactRenames(removed, added) : new Map<string, string>();
  const sources = new Set(renames.values());
  const entries = pairs
    .filter((p) => !sources.has(p.path) || p.now)
    .map((p) => (renames.has(p.path) ? { ...p, from: renames.get(p.path)!, old: before(renames.get(p.path)!) } : p));

  let text = "";
  const stats: StatRow[] = [];
  for (const { path, from, old, now } of entries) {
    if (from !== undefined) {
      if (options.format === "patch") {
        text += `diff --git ${prefixedPath("a/", from)} ${prefixedPath("b/", path)}\nsimilarity index 100%\nrename from ${quotePath(from)}\nrename to ${quotePath(path)}\n`;
      } else if (options.format === "name-only") text += `${quotePath(path)}\n`;
      else if (options.format === "name-status") text += `R100\t${quotePath(from)}\t${quotePath(path)}\n`;
      else stats.push({ path: renameLabel(from, path), insertions: 0, deletions: 0 });
      continue;
    }
    const result = await fileDiff(path, old, now, options.context);
    if (options.format === "patch") text += result.text;
    else if (options.format === "name-only") text += `${quotePath(path)}\n`;
    else if (options.format === "name-status") text += `${!old ? "A" : !now ? "D" : "M"}\t${quotePath(path)}\n`;
    else if (result.text.includes("\nBinary files ")) {
      const size = async (version: FileVersion | undefined) => (version ? (await version.bytes()).length : 0);
      stats.push({ path: quotePath(path), insertions: 0, deletions: 0, binary: { before: await size(old), after: await size(now) } });
    } else stats.push({ path: quotePath(path), insertions: result.insertions, deletions: result.deletions });
  }
  if (options.format === "stat") text = statText(stats);
  return { text, changed: entries.length };
}

/** What a commit changed against its first parent (nothing for a merge, as git's default shows it). */
export async function commitChanges(repo: Repo, commit: { oid: string; parents: string[] }, format: DiffFormat): Promise<string> {
  if (commit.parents.length > 1) return "";
  const before = await commitFiles(repo, commit.parents[0]);
  const after = await commitFiles(repo, commit.oid);
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return (
    await renderChanges(
      paths,
      (p) => before.get(p),
      async (p) => after.get(p),
      { format, context: 3 },
    )
  ).text;
}

export async function diff(args: string[], env: GitEnv, out: Out): Promise<number> {
  const options: DiffOptions = { cached: false, format: "patch", quiet: false, exitCode: false, context: 3 };
  const positional: string[] = [];
  const pathArgs: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes) pathArgs.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "--cached" || arg === "--staged") options.cached = true;
    else if (arg === "--name-only") options.format = "name-only";
    else if (arg === "--name-status") options.format = "name-status";
    else if (arg === "--stat") options.format = "stat";
    else if (arg === "--quiet") options.quiet = options.exitCode = true;
    else if (arg === "--exit-code") options.exitCode = true;
    else if (/^(-U|--unified=)\d+$/.test(arg)) options.context = Number(arg.replace(/^(-U|--unified=)/, ""));
    else if (/^--(no-)?color(=.*)?$|^--no-ext-diff$|^-p$|^--patch$/.test(arg)) continue;
    else if (arg.startsWith("-")) {
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git diff (supported here: --cached, --staged, --stat, --name-only, --name-status, --quiet, --exit-code, -U<n>)`,
        129,
      );
    } else positional.push(arg);
  }
  const repo = await findRepo(env);
  const revisions: string[] = [];
  for (const arg of positional) {
    if (pathArgs.length === 0 && revisions.length === positional.indexOf(arg) && arg.includes("..") && !arg.startsWith(".")) {
      const [from, to] = arg.split(/\.\.\.?/);
      revisions.push(from || "HEAD", to || "HEAD");
    } else if (revisions.length === positional.indexOf(arg) && (await isRevision(repo, arg))) revisions.push(arg);
    else {
      const exists = await repo.files.lstat(join(repo.cwd, arg)).then(
        () => true,
        () => false,
      );
      if (!exists) await resolveRevision(repo, arg);
      pathArgs.push(arg);
    }
  }
  const specs = pathArgs.map((p) => repoPath(repo, p));
  const wanted = (path: string) => specs.length === 0 || specs.some((spec) => underPath(path, spec));

  let before: Side;
  let after: Side;
  if (revisions.length >= 2) {
    before = { kind: "commit", oid: await resolveRevision(repo, revisions[0]!) };
    after = { kind: "commit", oid: await resolveRevision(repo, revisions[1]!) };
  } else if (revisions.length === 1) {
    before = { kind: "commit", oid: await resolveRevision(repo, revisions[0]!) };
    after = options.cached ? { kind: "index" } : { kind: "work" };
  } else if (options.cached) {
    before = { kind: "commit", oid: await headOid(repo) };
    after = { kind: "index" };
  } else {
    before = { kind: "index" };
    after = { kind: "work" };
  }

  const beforeFiles = (await filesOf(repo, before))!;
  const afterFiles = await filesOf(repo, after);
  let paths: string[];
  if (after.kind === "work" && before.kind === "index") {
    // Only what status sees as changed needs reading: the rest matches the index.
    const status = await repoStatus(repo, specs);
    paths = status.changes.filter((c) => c.worktree !== " ").map((c) => c.path);
  } else {
    const union = new Set([...beforeFiles.keys(), ...(afterFiles ?? (await indexFiles(repo))).keys()]);
    paths = [...union];
  }
  paths = paths.filter(wanted).sort();

  const { text, changed } = await renderChanges(
    paths,
    (path) => beforeFiles.get(path),
    async (path) => (afterFiles ? afterFiles.get(path) : workFile(repo, path)),
    options,
  );
  if (!options.quiet) out.out(text);
  return options.exitCode && changed > 0 ? 1 : 0;
}
