/**
 * One gitignore-format rule list (a `.gitignore`, `.ignore`, `.rgignore`, `.git/info/exclude`, or the
 * `--glob` overrides), with ripgrep's reading of each line: `#` comments, trailing blanks trimmed
 * unless escaped, `!` negation, a leading `/` or an inner `/` anchors the glob to the file's folder,
 * otherwise it matches at any depth; a trailing `/` matches folders only; `x/**` matches what is
 * inside `x`, not `x`. The last rule that matches a path decides.
 */
import { compileGlob, GlobError, type PathTest } from "./glob.js";

export type IgnoreMatch = "ignore" | "whitelist" | null;

export interface IgnoreRule {
  /** The line as written. */
  original: string;
  /** The glob actually matched (after adding `**​/` and the like). */
  glob: string;
  whitelist: boolean;
  dirOnly: boolean;
  test: PathTest;
}

export class IgnoreRules {
  readonly rules: IgnoreRule[] = [];

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  get whitelistCount(): number {
    return this.rules.filter((rule) => rule.whitelist).length;
  }

  /** Adds one line; throws GlobError for a glob that does not parse. */
  addLine(raw: string): void {
    let line = raw;
    if (line.startsWith("#")) return;
    if (!line.endsWith("\\ ")) line = line.trimEnd();
    if (line === "") return;
    const original = line;
    let whitelist = false;
    let absolute = false;
    if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    } else {
      if (line.startsWith("!")) {
        whitelist = true;
        line = line.slice(1);
      }
      if (line.startsWith("/")) {
        line = line.slice(1);
        absolute = true;
      }
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    let glob = line;
    if (!absolute && !line.includes("/") && !(glob.startsWith("**/") || glob === "**")) glob = `**/${glob}`;
    if (glob.endsWith("/**")) glob = `${glob}/*`;
    let test: PathTest;
    try {
      test = compileGlob(glob);
    } catch (error) {
      // ripgrep names the glob as written.
      if (error instanceof GlobError) throw new GlobError(original, error.reason);
      throw error;
    }
    this.rules.push({ original: raw, glob, whitelist, dirOnly, test });
  }

  /** The decision of the last matching rule for `path` (relative to the rules' folder). */
  match(path: string, isDir: boolean): IgnoreMatch {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.dirOnly && !isDir) continue;
      if (rule.test(path)) return rule.whitelist ? "whitelist" : "ignore";
    }
    return null;
  }
}

/**
 * Parses an ignore file. Lines whose glob does not parse are left out and reported as ripgrep does
 * ("line 2: error parsing glob '[': ..."); the other lines still apply.
 */
export function parseIgnoreFile(text: string): { rules: IgnoreRules; errors: string[] } {
  const rules = new IgnoreRules();
  const errors: string[] = [];
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  lines.forEach((raw, index) => {
    let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (index === 0 && line.startsWith("\uFEFF")) line = line.slice(1);
    try {
      rules.addLine(line);
    } catch (error) {
      if (error instanceof GlobError) errors.push(`line ${index + 1}: ${error.message}`);
      else throw error;
    }
  });
  return { rules, errors };
}
