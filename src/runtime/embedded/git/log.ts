import git, { type ReadCommitResult } from "isomorphic-git";
import { subjectOf } from "./commit.js";
import { commitChanges, type DiffFormat } from "./diff.js";
import { formatDefaultDate, formatIsoDate, formatRelativeDate, formatStrictIsoDate } from "./identity.js";
import { abbrev, currentBranch, findRepo, GitFatal, headOid, repoPath, resolveRevision, type GitEnv, type Out } from "./repo.js";

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
function expand(format: string, entry: ReadCommitResult, style: DateStyle): string {
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
      case "D":
        return "";
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

/** One commit as `git show` prints it before the diff (a `format:` template gets no newline). */
export function formatCommit(entry: ReadCommitResult, format: CommitFormat, style: DateStyle = "default"): string {
  if (format.kind === "oneline") return `${abbrev(entry.oid)} ${subjectOf(entry.commit.message)}\n`;
  if (format.kind === "medium") return medium(entry, style);
  return expand(format.template, entry, style) + (format.separator ? "" : "\n");
}

export async function log(args: string[], env: GitEnv, out: Out): Promise<number> {
  let limit: number | undefined;
  let format: CommitFormat = { kind: "medium" };
  let style: DateStyle = "default";
  let changes: DiffFormat | undefined;
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
    else if (/^--(no-)?(decorate|color)(=.*)?$|^--no-pager$/.test(arg)) continue;
    else if (arg.startsWith("-")) {
      throw new GitFatal(`unknown option '${arg.replace(/^-+/, "")}' for git log (supported here: --oneline, -n <n>, -<n>, -p, --stat, --name-only, --name-status, --format=, --pretty=, --date=, <revision>, -- <path>)`, 129);
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
  const entries = await git.log({
    fs: repo.fs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    ref: start,
    ...(limit !== undefined ? { depth: limit } : {}),
    ...(filepath ? { filepath } : {}),
  });
  const shown = limit !== undefined ? entries.slice(0, limit) : entries;
  const parts: string[] = [];
  for (const entry of shown) {
    let text = formatCommit(entry, format, style);
    const changed = changes ? await commitChanges(repo, { oid: entry.oid, parents: entry.commit.parent }, changes) : "";
    if (changed !== "") text += (format.kind === "oneline" ? "" : "\n") + changed;
    parts.push(text);
  }
  if (format.kind === "medium") out.out(parts.join("\n"));
  else if (format.kind === "custom" && format.separator) out.out(parts.join("\n"));
  else out.out(parts.join(""));
  return 0;
}
