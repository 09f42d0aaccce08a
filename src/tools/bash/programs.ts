/**
 * Commands that run a program given on their command line: an interpreter's inline code (`python3 -c`,
 * `perl -e`, `node -e`...) or the script of sed and awk. Such code can open, write or run anything, and is
 * not read here, so a command carrying it asks as `eval` of unknown text does. sed and awk scripts are read
 * just far enough to tell the plain ones (print, substitute, select) from those that write files or run
 * commands, which ask.
 */

interface Interpreter {
  /** Letters of single-dash options whose value is code (`-c`, `-e`), also inside a cluster (`-ne`). */
  inline: string;
  /** Long options whose value is code. */
  inlineLong?: readonly string[];
  /** Options that run a module or file named by their value rather than inline code (`python -m x`). */
  runsNamed?: readonly string[];
  /** Single-dash options (letters) and long options whose value is the next word, which is not the script. */
  valued?: string;
  valuedLong?: readonly string[];
}

const PYTHON: Interpreter = { inline: "c", runsNamed: ["-m"], valued: "WXQ" };
const NODE: Interpreter = {
  inline: "ep",
  inlineLong: ["--eval", "--print"],
  valued: "rC",
  valuedLong: ["--require", "--import", "--loader", "--experimental-loader", "--conditions", "--input-type", "--env-file", "--title"],
};

const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
  perl: { inline: "eE" },
  ruby: { inline: "e" },
  node: NODE,
  nodejs: NODE,
  bun: { inline: "ep", inlineLong: ["--eval", "--print"] },
  php: { inline: "rBRFE" },
  lua: { inline: "e" },
  luajit: { inline: "e" },
  Rscript: { inline: "e" },
  osascript: { inline: "e" },
  pwsh: { inline: "c", inlineLong: ["-Command", "-c"] },
  tclsh: { inline: "" },
};

export function interpreterOf(name: string): Interpreter | undefined {
  if (/^(python|pypy)[0-9.]*$/.test(name)) return PYTHON;
  return Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name] : undefined;
}

const INFO_ONLY = new Set(["--version", "-V", "--help", "-h", "-v"]);

/**
 * Why `words` (null: not known before running) make the interpreter run code that cannot be read, or
 * null when it runs a named script or module (a program, like any other, whose path is judged as such).
 * `stdinFed`: its standard input comes from a pipe, a heredoc or a redirection, where a program can come from.
 */
export function inlineCode(interpreter: Interpreter, words: readonly (string | null)[], stdinFed: boolean): string | null {
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === null || word === undefined) return "an interpreter option not known before it runs";
    if (word === "--") break;
    if (interpreter.valuedLong?.includes(word) || (interpreter.valued && new RegExp(`^-[${interpreter.valued}]$`).test(word))) {
      i++;
      continue;
    }
    if (interpreter.runsNamed?.some((o) => word === o || (word.startsWith(o) && !word.startsWith("--")))) return null;
    if (interpreter.inlineLong?.some((o) => word === o || word.startsWith(`${o}=`))) return "an interpreter running code given inline";
    if (/^-[^-]/.test(word) && [...word.slice(1)].some((letter) => interpreter.inline.includes(letter)))
      return "an interpreter running code given inline";
    if (!word.startsWith("-") || word === "-") {
      return word === "-" ? "an interpreter reading its program from its input" : null;
    }
  }
  if (words.length > 0 && words.every((w) => w !== null && INFO_ONLY.has(w))) return null;
  return stdinFed ? "an interpreter reading its program from its input" : null;
}

/**
 * Whether a sed script only reads its input and prints: no `w`/`W` (write a file), `r`/`R` (read one), `e`
 * (run a command), nor the `w`/`e` flags of `s`. Anything this reader does not recognise counts as not plain.
 */
export function sedIsPlain(script: string): boolean {
  let i = 0;
  const at = () => script[i];
  const skip = (chars: string) => {
    while (i < script.length && chars.includes(script[i]!)) i++;
  };
  /** Reads up to an unescaped `delimiter`; false when the script ends first. */
  const delimited = (delimiter: string): boolean => {
    while (i < script.length) {
      const ch = script[i++]!;
      if (ch === "\\") i++;
      else if (ch === delimiter) return true;
      else if (ch === "\n") return false;
    }
    return false;
  };
  const address = (): boolean => {
    const ch = at();
    if (ch === undefined) return true;
    if (/[0-9]/.test(ch)) skip("0123456789~");
    else if (ch === "$") i++;
    else if (ch === "/") {
      i++;
      if (!delimited("/")) return false;
      skip("IM");
    } else if (ch === "\\") {
      const delimiter = script[i + 1];
      if (delimiter === undefined) return false;
      i += 2;
      if (!delimited(delimiter)) return false;
      skip("IM");
    }
    return true;
  };
  while (i < script.length) {
    skip(" \t\n;");
    if (i >= script.length) break;
    if (at() === "#") {
      while (i < script.length && at() !== "\n") i++;
      continue;
    }
    if (!address()) return false;
    skip(" \t");
    if (at() === ",") {
      i++;
      skip(" \t");
      if (at() === "+" || at() === "~") i++;
      if (!address()) return false;
      skip(" \t");
    }
    skip("! \t");
    const command = script[i++];
    if (command === undefined) return false;
    if ("{}=dDgGhHnNpPxzlLqQ".includes(command)) {
      skip("0123456789 \t");
      continue;
    }
    if (command === "s" || command === "y") {
      const delimiter = script[i++];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return false;
      if (!delimited(delimiter) || !delimited(delimiter)) return false;
      if (command === "s") {
        const start = i;
        while (i < script.length && !";}\n \t".includes(script[i]!)) i++;
        if (/[we]/.test(script.slice(start, i))) return false;
      }
      continue;
    }
    if (command === ":" || command === "b" || command === "t" || command === "T") {
      while (i < script.length && !";\n".includes(script[i]!)) i++;
      continue;
    }
    if (command === "a" || command === "i" || command === "c") {
      // The text runs to the end of the line (GNU one-liner form too).
      while (i < script.length && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
      continue;
    }
    // r, R, w, W, e, F (prints a file name: harmless but rare) and anything unknown.
    return false;
  }
  return true;
}

/**
 * Whether an awk program only reads its input and prints to standard output: no `system()`, no `getline`
 * (which reads files or runs commands), no pipe (`print | "sh"`, `"cmd" | getline`), no `print > file`,
 * no `@include`/`@load`. Crude on purpose: a comparison that looks like a redirection (`print a > b` is
 * one) makes it ask, never the other way round.
 */
export function awkIsPlain(program: string): boolean {
  if (/\bsystem\s*\(|\bgetline\b|@(include|load|namespace)\b/.test(program)) return false;
  if (/(^|[^|])\|(?!\|)/.test(program.replace(/\|\|/g, "  "))) return false;
  return !/\bprintf?\b[^;{}\n]*>/.test(program);
}
