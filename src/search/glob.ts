/**
 * Globs with ripgrep's syntax (the globset crate, as ripgrep configures it for ignore files and
 * `--glob`): `*` and `?` never match `/`, `**` spans folders only as a whole component (`**​/x`,
 * `x/**`, `a/**​/b`), `[...]` / `[!...]` / `[^...]` classes (a negated class can match `/`), `{a,b}`
 * alternatives (not nested), and `\` escapes. A dot at the start of a name is not special.
 *
 * A glob compiles to a test on a path string; common shapes (a literal name, `*.ext`) skip the regex.
 */
import { GlobError } from "./errors.js";

export { GlobError };

type Token =
  | { t: "lit"; c: string }
  | { t: "any" }
  | { t: "star" }
  | { t: "rprefix" }
  | { t: "rsuffix" }
  | { t: "rmiddle" }
  | { t: "class"; negated: boolean; ranges: Array<[string, string]> }
  | { t: "alt"; branches: Token[][] };

function parse(glob: string): Token[] {
  const chars = Array.from(glob);
  // stack[0] is the glob's own token list; inside `{...}` the top is the current branch.
  const top: Token[] = [];
  let branches: Token[][] | null = null;
  let current: Token[] = top;
  let i = 0;
  const peek = (k = 0) => chars[i + k];

  while (i < chars.length) {
    const c = chars[i]!;
    i++;
    switch (c) {
      case "?":
        current.push({ t: "any" });
        break;
      case "*": {
        const prev = chars[i - 2];
        if (peek() !== "*") {
          current.push({ t: "star" });
          break;
        }
        i++; // the second '*'
        if (current.length === 0) {
          const next = peek();
          if (next === undefined || next === "/") {
            current.push({ t: "rprefix" });
            if (next === "/") i++;
          } else {
            current.push({ t: "star" }, { t: "star" });
          }
          break;
        }
        if (prev !== "/") {
          current.push({ t: "star" }, { t: "star" });
          break;
        }
        const next = peek();
        let suffix: boolean;
        if (next === undefined) suffix = true;
        else if ((next === "," || next === "}") && branches) suffix = true;
        else if (next === "/") {
          i++;
          suffix = false;
        } else {
          current.push({ t: "star" }, { t: "star" });
          break;
        }
        const popped = current.pop();
        if (popped && (popped.t === "rprefix" || popped.t === "rsuffix")) current.push(popped);
        else current.push({ t: suffix ? "rsuffix" : "rmiddle" });
        break;
      }
      case "[": {
        let negated = false;
        if (peek() === "!" || peek() === "^") {
          negated = true;
          i++;
        }
        const ranges: Array<[string, string]> = [];
        let first = true;
        let inRange = false;
        for (;;) {
          const d = chars[i];
          i++;
          if (d === undefined) throw new GlobError(glob, "unclosed character class; missing ']'");
          if (d === "]" && !first) break;
          if (d === "-" && !first && !inRange) {
            inRange = true;
          } else if (inRange) {
            const last = ranges[ranges.length - 1]!;
            const lo = last[0];
            if ((lo.codePointAt(0) ?? 0) > (d.codePointAt(0) ?? 0)) throw new GlobError(glob, `invalid range; '${lo}' > '${d}'`);
            last[1] = d;
            inRange = false;
          } else {
            ranges.push([d, d]);
          }
          first = false;
        }
        if (inRange) ranges.push(["-", "-"]);
        current.push({ t: "class", negated, ranges });
        break;
      }
      case "{":
        if (branches) throw new GlobError(glob, "nested alternate groups are not allowed");
        branches = [[]];
        current = branches[0]!;
        break;
      case "}":
        if (!branches) {
          current.push({ t: "lit", c });
          break;
        }
        top.push({ t: "alt", branches });
        branches = null;
        current = top;
        break;
      case ",":
        if (!branches) {
          current.push({ t: "lit", c });
          break;
        }
        current = [];
        branches.push(current);
        break;
      case "\\": {
        const next = chars[i];
        if (next === undefined) throw new GlobError(glob, "dangling '\\'");
        i++;
        current.push({ t: "lit", c: next });
        break;
      }
      default:
        current.push({ t: "lit", c });
    }
  }
  if (branches) throw new GlobError(glob, "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)");
  return top;
}

function escapeRegex(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

function escapeClass(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

function tokensToRegex(tokens: Token[]): string {
  let out = "";
  for (const tok of tokens) {
    switch (tok.t) {
      case "lit":
        out += escapeRegex(tok.c);
        break;
      case "any":
        out += "[^/]";
        break;
      case "star":
        out += "[^/]*";
        break;
      case "rprefix":
        out += "(?:/?|.*/)";
        break;
      case "rsuffix":
        out += "/.*";
        break;
      case "rmiddle":
        out += "(?:/|/.*/)";
        break;
      case "class": {
        let body = "";
        for (const [lo, hi] of tok.ranges) body += lo === hi ? escapeClass(lo) : `${escapeClass(lo)}-${escapeClass(hi)}`;
        out += tok.negated ? `[^${body}]` : body === "" ? "(?!)" : `[${body}]`;
        break;
      }
      case "alt":
        out += `(?:${tok.branches.map(tokensToRegex).join("|")})`;
        break;
    }
  }
  return out;
}

/** The regex source (anchored) for a glob; throws GlobError. */
function globRegexSource(glob: string): string {
  const tokens = parse(glob);
  if (tokens.length === 1 && tokens[0]!.t === "rprefix") return "^.*$";
  return `^${tokensToRegex(tokens)}$`;
}

export type PathTest = (path: string) => boolean;

/**
 * Compiles a glob to a test on a slash-separated path. Shapes that need no regex are recognised:
 * `**​/name` (a literal base name) and `**​/*.ext` (a literal suffix of the base name).
 */
export function compileGlob(glob: string): PathTest {
  const tokens = parse(glob);
  if (tokens.length === 1 && tokens[0]!.t === "rprefix") return () => true;
  const literal = (list: Token[]) => (list.every((t) => t.t === "lit") ? list.map((t) => (t as { c: string }).c).join("") : undefined);
  if (tokens[0]?.t === "rprefix") {
    const rest = tokens.slice(1);
    const name = literal(rest);
    if (name !== undefined && !name.includes("/")) {
      return (path) => path === name || path.endsWith(`/${name}`);
    }
    if (rest[0]?.t === "star") {
      const suffix = literal(rest.slice(1));
      if (suffix !== undefined && !suffix.includes("/")) {
        return (path) => {
          if (!path.endsWith(suffix)) return false;
          const slash = path.lastIndexOf("/");
          return path.length - suffix.length > slash;
        };
      }
    }
  }
  const re = new RegExp(`^${tokensToRegex(tokens)}$`, "su");
  return (path) => re.test(path);
}
