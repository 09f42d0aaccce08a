/**
 * `workbench rg`: the search library behind a ripgrep-compatible command line, for the flags the
 * tools use. Output and exit codes are ripgrep 13's when its output is not a terminal: 0 something
 * matched, 1 nothing did, 2 an error happened (even alongside matches). Real ripgrep is the oracle of
 * the differential tests (test/search/differential.test.ts).
 *
 *   -e/--regexp PATTERN   -g/--glob GLOB   -i/--ignore-case   -s/--case-sensitive
 *   -n/--line-number      -N/--no-line-number   -H/--with-filename   -I/--no-filename
 *   --files   --hidden   -L/--follow   --no-messages   --field-match-separator SEP
 */
import { GlobError } from "../search/glob.js";
import { SearchPatternError, type SearchFs, type SearchService } from "../search/index.js";
import { resolvePath } from "../search/path.js";

export interface RgIO {
  out(text: string): void;
  err(text: string): void;
}

export interface RgEnvironment {
  /** The search to run (a runtime's: in process on node, in its worker on embedded). */
  search: SearchService;
  /** For the one stat rg makes itself (is a lone path a folder?). */
  fs: Pick<SearchFs, "stat">;
  /** The folder the command runs in (absolute). */
  cwd: string;
}

interface RgArgs {
  patterns: string[];
  paths: string[];
  globs: string[];
  files: boolean;
  hidden: boolean;
  follow: boolean;
  noMessages: boolean;
  caseInsensitive: boolean;
  lineNumber: boolean;
  withFilename: boolean | undefined;
  fieldMatchSeparator: string;
}

class RgUsageError extends Error {}

/** ripgrep's escapes in separators: \t, \n, \r, \\, \xHH, \0. */
function unescape(text: string): string {
  return text.replace(/\\(x[0-9A-Fa-f]{2}|.)/g, (whole, code: string) => {
    if (code.startsWith("x") && code.length === 3) return String.fromCharCode(parseInt(code.slice(1), 16));
    switch (code) {
      case "t":
        return "\t";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "0":
        return "\0";
      case "\\":
        return "\\";
      default:
        return whole;
    }
  });
}

const LONG_FLAGS: Record<string, (a: RgArgs) => void> = {
  files: (a) => (a.files = true),
  hidden: (a) => (a.hidden = true),
  "no-hidden": (a) => (a.hidden = false),
  follow: (a) => (a.follow = true),
  "no-follow": (a) => (a.follow = false),
  "no-messages": (a) => (a.noMessages = true),
  messages: (a) => (a.noMessages = false),
  "ignore-case": (a) => (a.caseInsensitive = true),
  "case-sensitive": (a) => (a.caseInsensitive = false),
  "line-number": (a) => (a.lineNumber = true),
  "no-line-number": (a) => (a.lineNumber = false),
  "with-filename": (a) => (a.withFilename = true),
  "no-filename": (a) => (a.withFilename = false),
};

const SHORT_FLAGS: Record<string, keyof typeof LONG_FLAGS> = {
  L: "follow",
  i: "ignore-case",
  s: "case-sensitive",
  n: "line-number",
  N: "no-line-number",
  H: "with-filename",
  I: "no-filename",
};

const LONG_VALUES: Record<string, (a: RgArgs, value: string) => void> = {
  regexp: (a, v) => a.patterns.push(v),
  glob: (a, v) => a.globs.push(v),
  "field-match-separator": (a, v) => (a.fieldMatchSeparator = unescape(v)),
};

const SHORT_VALUES: Record<string, keyof typeof LONG_VALUES> = { e: "regexp", g: "glob" };

function parseRgArgs(argv: string[]): RgArgs {
  const args: RgArgs = {
    patterns: [],
    paths: [],
    globs: [],
    files: false,
    hidden: false,
    follow: false,
    noMessages: false,
    caseInsensitive: false,
    lineNumber: false,
    withFilename: undefined,
    fieldMatchSeparator: ":",
  };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      const setValue = LONG_VALUES[name];
      if (setValue) {
        let value: string | undefined;
        if (eq >= 0) value = arg.slice(eq + 1);
        else value = argv[++i];
        if (value === undefined) throw new RgUsageError(`The argument '--${name} <VALUE>' requires a value but none was supplied`);
        setValue(args, value);
        continue;
      }
      const flag = LONG_FLAGS[name];
      if (!flag || eq >= 0) throw new RgUsageError(`Found argument '${arg}' which wasn't expected, or isn't valid in this context`);
      flag(args);
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k]!;
        const valueName = SHORT_VALUES[letter];
        if (valueName) {
          let value = arg.slice(k + 1);
          if (value === "") {
            const next = argv[++i];
            if (next === undefined) throw new RgUsageError(`The argument '-${letter}' requires a value but none was supplied`);
            value = next;
          }
          LONG_VALUES[valueName]!(args, value);
          break;
        }
        const flagName = SHORT_FLAGS[letter];
        if (!flagName) throw new RgUsageError(`Found argument '-${letter}' which wasn't expected, or isn't valid in this context`);
        LONG_FLAGS[flagName]!(args);
      }
      continue;
    }
    positionals.push(arg);
  }
  if (!args.files && args.patterns.length === 0) {
    const pattern = positionals.shift();
    if (pattern === undefined) throw new RgUsageError("The following required arguments were not provided:\n    <PATTERN>");
    args.patterns.push(pattern);
  }
  args.paths = positionals;
  return args;
}

/** Buffers output so a large result is not one write per line. */
class Output {
  private chunk = "";
  constructor(private readonly io: RgIO) {}
  write(text: string): void {
    this.chunk += text;
    if (this.chunk.length > 1 << 16) this.flush();
  }
  flush(): void {
    if (this.chunk) this.io.out(this.chunk);
    this.chunk = "";
  }
}

/** Runs `rg <argv>`; returns the exit code. */
export async function rgMain(argv: string[], io: RgIO, env: RgEnvironment): Promise<number> {
  let args: RgArgs;
  try {
    args = parseRgArgs(argv);
  } catch (error) {
    if (error instanceof RgUsageError) {
      io.err(`error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const options = {
    root: env.cwd,
    paths: args.paths,
    hidden: args.hidden,
    follow: args.follow,
    globs: args.globs,
  };
  const callOptions = {
    onMessage: (text: string) => {
      if (!args.noMessages) io.err(`${text}\n`);
    },
  };
  const out = new Output(io);
  try {
    if (args.files) {
      const files = env.search.list(options, callOptions);
      let any = false;
      for await (const file of files) {
        any = true;
        out.write(`${file.displayPath}\n`);
      }
      out.flush();
      if (files.stats().errored) return 2;
      return any ? 0 : 1;
    }
    const searcher = env.search.search(
      { ...options, patterns: args.patterns, caseInsensitive: args.caseInsensitive, positions: false },
      callOptions,
    );
    let withFilename = args.withFilename;
    if (withFilename === undefined) {
      if (args.paths.length !== 1) withFilename = true;
      else {
        const only = await env.fs.stat(resolvePath(env.cwd, args.paths[0]!)).catch(() => undefined);
        withFilename = only?.type === "directory";
      }
    }
    const sep = args.fieldMatchSeparator;
    let matched = false;
    for await (const result of searcher) {
      matched = true;
      const prefix = withFilename ? result.displayPath : undefined;
      const head = prefix !== undefined ? prefix + sep : "";
      for (const match of result.matches) {
        let line = head;
        if (args.lineNumber) line += `${match.lineNumber}${sep}`;
        line += match.line;
        if (match.lineEnding.charCodeAt(0) === 13) line += "\r";
        out.write(`${line}\n`);
      }
      if (result.binary) {
        const what = result.binary.stopped
          ? `WARNING: stopped searching binary file after match (found "\\0" byte around offset ${result.binary.offset})`
          : `binary file matches (found "\\0" byte around offset ${result.binary.offset})`;
        out.write(prefix !== undefined ? `${prefix}: ${what}\n` : `${what}\n`);
      }
    }
    out.flush();
    let { errored, filesSearched } = searcher.stats();
    if (filesSearched === 0 && args.paths.length === 0) {
      errored = true;
      if (!args.noMessages) {
        io.err(
          "No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n",
        );
      }
    }
    if (errored) return 2;
    return matched ? 0 : 1;
  } catch (error) {
    out.flush();
    if (error instanceof SearchPatternError || error instanceof GlobError) {
      io.err(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
