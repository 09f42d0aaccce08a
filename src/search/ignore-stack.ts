/**
 * The ignore rules in force at a folder: its own `.rgignore`, `.ignore`, `.gitignore` and (for a
 * repository root) `.git/info/exclude`, chained to its parent's. How ripgrep 13 combines them:
 *
 * - Per kind, the deepest folder with a matching rule decides; the kinds rank
 *   `.rgignore` > `.ignore` > `.gitignore` > `.git/info/exclude`.
 * - `.gitignore` and `exclude` count only inside a git repository (some folder on the chain has a
 *   `.git`), and only up to the nearest repository root: a nested repository starts fresh.
 * - Folders above the search root ("absolute parents") apply too. ripgrep matches them against the
 *   search root's real path joined with the path as walked, which for a relative root like `sub`
 *   doubles it ("/repo/sub/sub/x"); anchored rules in a parent then miss. We do the same.
 */
import type { IgnoreMatch, IgnoreRules } from "./ignore.js";
import { stripDotSlash, stripPrefixPath } from "./path.js";

export interface DirRules {
  /** The folder as walked, "./" stripped ("" for the default root), or its absolute path for a parent. */
  prefix: string;
  absoluteParent: boolean;
  hasGit: boolean;
  /** Some folder from here up has a `.git`. */
  anyGit: boolean;
  rgignore?: IgnoreRules;
  ignore?: IgnoreRules;
  gitignore?: IgnoreRules;
  exclude?: IgnoreRules;
  parent?: DirRules;
}

export function dirRules(parent: DirRules | undefined, fields: Omit<DirRules, "anyGit" | "parent">): DirRules {
  return { ...fields, parent, anyGit: fields.hasGit || (parent?.anyGit ?? false) };
}

function hasAnyRules(rules: DirRules | undefined): boolean {
  for (let r = rules; r; r = r.parent) {
    if (r.rgignore || r.ignore || ((r.gitignore || r.exclude) && r.anyGit)) return true;
  }
  return false;
}

/**
 * The ignore files' verdict on `walkedPath` (as walked, in folder `dir`). `realRoot` is the real path
 * of the search root the walk started from (for the absolute parents).
 */
export function matchIgnoreFiles(dir: DirRules, walkedPath: string, isDir: boolean, realRoot: string): IgnoreMatch {
  const path = stripDotSlash(walkedPath);
  const anyGit = dir.anyGit;
  let custom: IgnoreMatch = null;
  let plain: IgnoreMatch = null;
  let git: IgnoreMatch = null;
  let exclude: IgnoreMatch = null;
  let sawGit = false;
  let absolutePath: string | undefined;
  for (let d: DirRules | undefined = dir; d; d = d.parent) {
    if (!d.rgignore && !d.ignore && !d.gitignore && !d.exclude) {
      sawGit ||= d.hasGit;
      continue;
    }
    let rel: string;
    if (d.absoluteParent) {
      absolutePath ??= path.startsWith("/") ? path : realRoot === "/" ? `/${path}` : `${realRoot}/${path}`;
      rel = stripPrefixPath(d.prefix, absolutePath) ?? absolutePath;
    } else {
      rel = d.prefix === "" || !path.includes("/") ? path : (stripPrefixPath(d.prefix, path) ?? path);
    }
    if (custom === null && d.rgignore) custom = d.rgignore.match(rel, isDir);
    if (plain === null && d.ignore) plain = d.ignore.match(rel, isDir);
    if (anyGit && !sawGit) {
      if (git === null && d.gitignore) git = d.gitignore.match(rel, isDir);
      if (exclude === null && d.exclude) exclude = d.exclude.match(rel, isDir);
    }
    sawGit ||= d.hasGit;
  }
  return custom ?? plain ?? git ?? exclude;
}
