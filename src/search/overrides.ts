/**
 * `--glob` overrides as ripgrep applies them. Each glob is a gitignore line with its meaning turned
 * around: `-g '*.ts'` includes, `-g '!*.ts'` excludes, the last matching glob decides. A match in
 * either direction beats every ignore file and the hidden-file rule; with at least one including glob,
 * a file no glob matches is left out (a folder is not: it is still walked). Globs match the path
 * relative to the folder ripgrep runs in (the caller's `root`), or the path as walked when it lies
 * outside it ("../x").
 */
import { IgnoreRules, type IgnoreMatch } from "./ignore.js";
import { stripDotSlash, stripPrefixPath } from "./path.js";

export class Overrides {
  private readonly rules = new IgnoreRules();
  private readonly includes: number;

  /** Throws GlobError for a glob that does not parse. */
  constructor(
    globs: readonly string[],
    private readonly root: string,
  ) {
    for (const glob of globs) this.rules.addLine(glob);
    this.includes = this.rules.rules.filter((rule) => !rule.whitelist).length;
  }

  get isEmpty(): boolean {
    return this.rules.isEmpty;
  }

  /** "whitelist": include whatever the ignore files say; "ignore": leave out; null: no say. */
  match(walkedPath: string, isDir: boolean): IgnoreMatch {
    if (this.rules.isEmpty) return null;
    let path = stripDotSlash(walkedPath);
    if (path.includes("/")) path = stripPrefixPath(this.root, path) ?? path;
    const raw = this.rules.match(path, isDir);
    if (raw === "ignore") return "whitelist";
    if (raw === "whitelist") return "ignore";
    if (this.includes > 0 && !isDir) return "ignore";
    return null;
  }
}
