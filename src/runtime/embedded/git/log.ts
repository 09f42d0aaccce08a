import git, { type ReadCommitResult } from "isomorphic-git";
import { subjectOf } from "./commit.js";
import { commitChanges, type DiffFormat } from "./diff.js";
import { formatDefaultDate, formatIsoDate, formatRelativeDate, formatStrictIsoDate } from "./identity.js";
import { abbrev, currentBranch, findRepo, GitFatal, headOid, repoPath, resolveRevision, type GitEnv, type Out, type Repo } from "./repo.js";

type Person = ReadCommitResult["commit"]["author"];
type DateStyle = "default" | "iso" | "iso-strict" | "relative" | "short" | "unix";

function dateText(person: Person, style: DateStyle): string {
  const zone = -person.timezoneOffset;
  switch (style) {
    case "iso":
      return formatIsoDate(person.timestamp, zone);
    case "iso-strict":
      return formatStrictIsoDate(person.timestamp, zone);
    case "relative":
      return formatRelativeDate(person.timestamp);
    case "short":
      return formatIsoDate(person.timestamp, zone).slice(0, 10);
    case "unix":
      return String(person.timestamp);
    default:
      return formatDefaultDate(person.timestamp, zone);
  }
}

function bodyOf(message: string): string {
  const trimmed = message.replace(/^\n+/, "");
  const split = /\n\s*\n/.exec(trimmed);
  return split ? trimmed.slice(split.index + split[0].length) : "";
}

/** Expands one `--format` string for one commit (the common placeholders). */
function expand(format: string, entry: ReadCommitResult, style: DateStyle, labels: string[] = []): string {
  const { commit, oid } = entry;
  return format.replace(/%(%|n|H|h|T|t|P|p|s|b|B|an|ae|ad|ar|at|ai|aI|as|cn|ce|cd|cr|ct|ci|cI|cs|d|D)/g, (_, code: string) => {
    switch (code) {
      case "%":
        return "%";
      case "n":
        return "\n";
      case "H":
        return oid;
      case "h":
        return abbrev(oid);
      case "T":
        return commit.tree;
      case "t":
        return abbrev(commit.tree);
      case "P":
        return commit.parent.join(" ");
      case "p":
        return commit.parent.map(abbrev).join(" ");
      case "s":
        return subjectOf(commit.message);
      case "b":
        return bodyOf(commit.message);
      case "B":
        return commit.message;
      case "d":
        return labels.length > 0 ? ` (${labels.join(", ")})` : "";
      case "D":
        return labels.join(", ");
    }
    const person = code[0] === "a" ? commit.author : commit.committer;
    switch (code[1]) {
      case "n":
        return person.name;
      case "e":
        return person.email;
      case "d":
        return dateText(person, style);
      case "r":
        return formatRelativeDate(person.timestamp);
      case "t":
        return String(person.timestamp);
      case "i":
        return formatIsoDate(person.timestamp, -person.timezoneOffset);
      case "I":
        return formatStrictIsoDate(person.timestamp, -person.timezoneOffset);
      default:
        return formatIsoDate(person.timestamp, -person.timezoneOffset).slice(0, 10);
    }
  });
}

function medium(entry: ReadCommitResult, style: DateStyle): string {
  const { commit, oid } = entry;
  let text = `commit ${oid}\n`;
  if (commit.parent.length > 1) text += `Merge: ${commit.parent.map(abbrev).join(" ")}\n`;
  text += `Author: ${commit.author.name} <${commit.author.email}>\n`;
  text += `Date:   ${dateText(commit.author, style)}\n\n`;
  const lines = commit.message.replace(/\n+$/, "").split("\n");
  for (const line of lines) text += `    ${line}\n`;
  return text;
}

export type CommitFormat = { kind: "medium" } | { kind: "oneline" } | { kind: "custom"; template: string; separator: boolean };

/** A `--pretty=`/`--format=` value. */
export function parseFormat(spec: string): CommitFormat {
  if (spec === "oneline") return { kind: "oneline" };
  if (spec === "medium") return { kind: "medium" };
  if (spec.startsWith("format:")) return { kind: "custom", template: spec.slice(7), separator: true };
  if (spec.startsWith("tformat:")) return { kind: "custom", template: spec.slice(8), separator: false };
  if (spec.includes("%")) return { kind: "custom", template: spec, separator: false };
  throw new GitFatal(`invalid --pretty format: ${spec} (supported here: oneline, medium, format:<text>, tformat:<text>)`);
}

/**
 * What `--decorate` prints for each commit: `HEAD -> main` first, then the other branches and
 * tags in git's order (full ref names, last first).
 */
async function decorations(repo: Repo): Promise<Map<string, string[]>> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const current = await currentBranch(repo);
  const head = await headOid(repo);
  const refs: { full: string; label: string; oid: string }[] = [];
  for (const name of await git.listBranches(where)) {
    if (name !== current)
      refs.push({ full: `refs/heads/${name}`, label: name, oid: await git.resolveRef({ ...where, ref: `refs/heads/${name}` }) });
  }
  for (const name of await git.listTags(where)) {
    let oid = await git.resolveRef({ ...where, ref: `refs/tags/${name}` });
    // An annotated tag points at a tag object; decorate the commit it names.
    oid = await git.readTag({ ...where, oid }).then(
      (tag) => tag.tag.object,
      () => oid,
    );
    refs.push({ full: `refs/tags/${name}`, label: `tag: ${name}`, oid });
  }
  refs.sort((a, b) => (a.full < b.full ? 1 : a.full > b.full ? -1 : 0));
  const map = new Map<string, string[]>();
  const add = (oid: string, label: string) => map.set(oid, [...(map.get(oid) ?? []), label]);
  if (head) add(head, current ? `HEAD -> ${current}` : "HEAD");
  for (const ref of refs) add(ref.oid, ref.label);
  return map;
}

/** One commit as `git show` prints it before the diff (a `format:` template gets no newline). */
export function formatCommit(
  entry: ReadCommitResult,
  format: CommitFormat,
  style: DateStyle = "default",
  decoration: { shown: boolean; labels: Map<string, string[]> } = { shown: false, labels: new Map() },
): string {
  const labels = decoration.labels.get(entry.oid) ?? [];
  const decorated = decoration.shown && labels.length > 0 ? ` (${labels.join(", ")})` : "";
  if (format.kind === "oneline") return `${abbrev(entry.oid)}${decorated} ${subjectOf(entry.commit.message)}\n`;
  if (format.kind === "medium") return medium(entry, style).replace(/^(commit \S+)/, `$1${decorated}`);
  return expand(format.template, entry, style, labels) + (format.separator ? "" : "\n");
}

/**
 * Commits reachable from several heads, newest commit date first; equal dates keep the order they
 * were reached in (git's revision walk), so that `--all` lists what git lists.
 */
async function walkByDate(
  repo: Repo,
  heads: string[],
  wanted: (oid: string) => boolean,
  limit: number | undefined,
): Promise<ReadCommitResult[]> {
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const queue: { entry: ReadCommitResult; order: number }[] = [];
  const queued = new Set<string>();
  let order = 0;
  const push = async (oid: string) => {
    if (queued.has(oid)) return;
    queued.add(oid);
    queue.push({ entry: await git.readCommit({ ...where, oid }), order: order++ });
  };
  for (const head of heads) await push(head);
  const result: ReadCommitResult[] = [];
  while (queue.length > 0 && (limit === undefined || result.length < limit)) {
    queue.sort((a, b) => b.entry.commit.committer.timestamp - a.entry.commit.committer.timestamp || a.order - b.order);
    const { entry } = queue.shift()!;
    if (wanted(entry.oid)) result.push(entry);
    for (const parent of entry.commit.parent) await push(parent);
  }
  return result;
}

export async function log(args: string[], env: GitEnv, out: Out): Promise<number> {
  let limit: number | undefined;
  let format: CommitFormat = { kind: "medium" };
  let style: DateStyle = "default";
  let changes: DiffFormat | undefined;
  let decorate = false;
  let graph = false;
  let all = false;
  const revisions: string[] = [];
  const paths: string[] = [];
  let afterDashes = false;
  const custom = parseFormat;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (afterDashes) paths.push(arg);
    else if (arg === "--") afterDashes = true;
    else if (arg === "--oneline") format = { kind: "oneline" };
    else if (arg === "-p" || arg === "-u" || arg === "--patch") changes = "patch";
    else if (arg === "--stat") changes = "stat";
    else if (arg === "--name-only") changes = "name-only";
    else if (arg === "--name-status") changes = "name-status";
    else if (/^-\d+$/.test(arg)) limit = Number(arg.slice(1));
    else if (arg === "-n" || arg === "--max-count") limit = Number(args[++i]);
    else if (/^-n\d+$/.test(arg)) limit = Number(arg.slice(2));
    else if (arg.startsWith("--max-count=")) limit = Number(arg.slice("--max-count=".length));
    else if (arg.startsWith("--format=")) format = custom(arg.slice(9));
    else if (arg.startsWith("--pretty=")) format = custom(arg.slice(9));
    else if (arg.startsWith("--date=")) style = arg.slice(7) as DateStyle;
    else if (arg === "--decorate" || arg === "--decorate=short" || arg === "--decorate=full") decorate = true;
    else if (arg === "--no-decorate") decorate = false;
    else if (arg === "--graph") graph = true;
    else if (arg === "--all" || arg === "--branches") all = true;
    else if (/^--(no-)?color(=.*)?$|^--no-pager$|^--decorate=(auto|no)$/.test(arg)) continue;
    else if (arg.startsWith("-")) {
      throw new GitFatal(
        `unknown option '${arg.replace(/^-+/, "")}' for git log (supported here: --oneline, -n <n>, -<n>, -p, --stat, --name-only, --name-status, --format=, --pretty=, --date=, --decorate, --graph, --all, <revision>, -- <path>)`,
        129,
      );
    } else revisions.push(arg);
  }
  if (limit !== undefined && !(limit >= 0)) throw new GitFatal("'-n' needs a number");
  const repo = await findRepo(env);
  let start: string | undefined;
  if (revisions.length > 0) start = await resolveRevision(repo, revisions[0]!);
  else {
    start = await headOid(repo);
    if (!start) throw new GitFatal(`your current branch '${(await currentBranch(repo)) ?? "HEAD"}' does not have any commits yet`);
  }
  if (limit === 0) return 0;
  const filepath = paths.length > 0 ? repoPath(repo, paths[0]!) : undefined;
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  const starts = [start];
  if (all) for (const name of await git.listBranches(where)) starts.push(await git.resolveRef({ ...where, ref: `refs/heads/${name}` }));
  const heads = [...new Set(starts)];
  let shown: ReadCommitResult[];
  if (heads.length === 1) {
    shown = await git.log({ ...where, ref: start, ...(limit !== undefined ? { depth: limit } : {}), ...(filepath ? { filepath } : {}) });
  } else {
    const allowed = filepath ? new Set<string>() : undefined;
    if (allowed) for (const ref of heads) for (const entry of await git.log({ ...where, ref, filepath })) allowed.add(entry.oid);
    shown = await walkByDate(repo, heads, (oid) => !allowed || allowed.has(oid), limit);
  }
  if (limit !== undefined) shown = shown.slice(0, limit);
  const labels = await decorations(repo);
  const parts: string[] = [];
  for (const entry of shown) {
    let text = formatCommit(entry, format, style, { shown: decorate, labels });
    const changed = changes ? await commitChanges(repo, { oid: entry.oid, parents: entry.commit.parent }, changes) : "";
    if (changed !== "") text += (format.kind === "oneline" ? "" : "\n") + changed;
    parts.push(text);
  }
  const separated = format.kind === "medium" || (format.kind === "custom" && format.separator);
  if (graph) {
    // A straight line of history: `*` at each commit, `|` down to the next one.
    out.out(
      parts
        .map((part, i) => {
          const last = shown[i]!.commit.parent.length === 0;
          const body = separated && i < parts.length - 1 ? `${part}\n` : part;
          const lines = body.replace(/\n$/, "").split("\n");
          return `${lines.map((line, j) => `${j === 0 ? "* " : last ? "  " : "| "}${line}`).join("\n")}\n`;
        })
        .join(""),
    );
  } else out.out(parts.join(separated ? "\n" : ""));
  return 0;
}
