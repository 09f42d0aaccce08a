/**
 * The argument sets of the differential suite: each runs in `cwd` (relative to the fixture folder
 * made by scripts/make-search-fixtures.mjs) through real ripgrep and through `workbench rg`.
 * `what` names the semantic it checks; `stderr` also compares the messages (sorted lines).
 */
export interface DiffCase {
  what: string;
  cwd: string;
  args: string[];
  stderr?: boolean;
}

const nh = ["-n", "-H"];

export const differentialCases: DiffCase[] = [
  // Output format and exit codes.
  { what: "literal, -nH", cwd: "repo", args: [...nh, "hello"] },
  { what: "no match exits 1", cwd: "repo", args: [...nh, "zzz-not-there"] },
  { what: "default output (no -n)", cwd: "repo", args: ["world"] },
  { what: "--field-match-separator", cwd: "repo", args: ["-nH", "--field-match-separator=|", "hello"] },
  { what: "--field-match-separator as two args", cwd: "repo", args: ["-n", "--field-match-separator", "::", "needle", "long"] },
  { what: "single explicit file: no file name", cwd: "repo", args: ["-n", "hello", "a.txt"] },
  { what: "two explicit files: file names", cwd: "repo", args: ["-n", "hello", "a.txt", "keep.log"] },
  { what: "explicit folder keeps its spelling", cwd: "repo", args: [...nh, "hello", "./src"] },
  { what: "explicit folder with trailing slash", cwd: "repo", args: [...nh, "hello", "src/"] },
  { what: "explicit . path", cwd: "repo", args: [...nh, "hello", "."] },
  { what: "absolute path", cwd: "repo", args: [...nh, "hello", "@abs:repo/src"] },
  { what: "-e patterns joined with |", cwd: "repo", args: [...nh, "-e", "world", "-e", "main"] },
  { what: "-e with a flag leaks to the next pattern (rg joins raw)", cwd: "repo", args: [...nh, "-e", "(?i)zzz", "-e", "hello upper"] },
  { what: "--regexp=", cwd: "repo", args: [...nh, "--regexp=util\\("] },
  { what: "empty pattern matches every line", cwd: "repo/text", args: [...nh, "-e", ""] },
  { what: "pattern after --", cwd: "repo", args: [...nh, "--", "-not-a-flag"] },
  { what: "missing path is an error (exit 2)", cwd: "repo", args: [...nh, "hello", "missing-path", "a.txt"], stderr: true },
  { what: "no files searched under the default path exits 2", cwd: "repo", args: [...nh, "-g", "*.none", "hello"], stderr: true },
  { what: "combined short flags -inH", cwd: "repo", args: ["-inH", "HELLO UPPER"] },

  // Regex dialect.
  { what: "alternation", cwd: "repo", args: [...nh, "hello (world|main)|util\\(42"] },
  { what: "case-insensitive -i", cwd: "repo", args: [...nh, "-i", "hello upper"] },
  { what: "-s after -i wins", cwd: "repo", args: [...nh, "-i", "-s", "HELLO"] },
  { what: "inline (?i)", cwd: "repo", args: [...nh, "(?i)straße"] },
  { what: "Unicode -i: Kelvin sign and sigma", cwd: "repo/text", args: [...nh, "-i", "kelvin: k|σς"] },
  { what: "\\p{Greek} and \\p{L}", cwd: "repo/text", args: [...nh, "\\p{Greek}{3}|\\p{Han}+"] },
  { what: "\\p{Cyrillic} loose name", cwd: "repo/text", args: [...nh, "\\p{ cyrillic }+ \\pL"] },
  { what: "Unicode \\w and \\b", cwd: "repo/text", args: [...nh, "\\bwordé\\b|\\bnaïve\\b"] },
  { what: "ASCII word boundary (?-u:\\b)", cwd: "repo/text", args: [...nh, "(?-u:\\bboundary\\b)"] },
  { what: "anchors ^ and $", cwd: "repo", args: [...nh, "^hello|line$"] },
  { what: "\\A and \\z are line anchors in rg", cwd: "repo/src", args: [...nh, "\\Aexport|\\}\\z"] },
  { what: "classes, ranges, negation, POSIX", cwd: "repo", args: [...nh, "[[:digit:]]{2}|[^\\x00-\\x7F]{3}"] },
  { what: "class set operations", cwd: "repo/text", args: [...nh, "[\\p{L}&&\\p{Greek}]{2}|[a-z--[a-x]]{2}"] },
  { what: "counted repetition", cwd: "repo", args: [...nh, "l{2}o", "a.txt", "src"] },
  { what: "lazy and (?U)", cwd: "repo/src", args: [...nh, "(?U)n+"] },
  { what: "(?x) verbose", cwd: "repo", args: [...nh, "(?x) hel lo \\  wor # comment\n ld"] },
  { what: "named group", cwd: "repo", args: [...nh, "(?P<greet>hello) (?:world)"] },
  { what: "escapes \\x and \\u", cwd: "repo/text", args: [...nh, "\\x{3b1}\\u03b2|caf\\xe9"] },
  { what: "dot does not match invalid UTF-8", cwd: "repo/text", args: [...nh, "bad ... bytes|bad .. bytes"] },
  { what: "invalid UTF-8 lines print", cwd: "repo/text", args: [...nh, "hello"] },
  { what: "look-around is an error", cwd: "repo", args: [...nh, "a(?=b)"] },
  { what: "backreference is an error", cwd: "repo", args: [...nh, "(a)\\1"] },
  { what: "unclosed group is an error", cwd: "repo", args: [...nh, "(hello"] },
  { what: "literal \\n is an error", cwd: "repo", args: [...nh, "hello\\nworld"] },
  { what: "unknown escape is an error", cwd: "repo", args: [...nh, "\\/"] },
  { what: "catastrophic (a+)+$ runs linear", cwd: "long", args: [...nh, "(a+)+$"] },
  { what: "catastrophic (x+x+)+y", cwd: "long", args: [...nh, "(x+x+)+y"] },
  { what: "long line match", cwd: "long", args: [...nh, "needle"] },

  // Walking: hidden, ignore files, globs.
  { what: "--files", cwd: "repo", args: ["--files"] },
  { what: "--files --hidden (includes .git)", cwd: "repo", args: ["--files", "--hidden"] },
  { what: "--hidden search", cwd: "repo", args: [...nh, "--hidden", "hello"] },
  { what: "hidden file named explicitly", cwd: "repo", args: [...nh, "hello", ".hidden.txt", ".hiddendir"] },
  { what: "ignored file named explicitly is searched", cwd: "repo", args: [...nh, "hello", "x.log", "build"] },
  { what: "nested .gitignore and negation", cwd: "repo/src", args: ["--files"] },
  { what: "nested repository starts fresh", cwd: "repo", args: ["--files", "nested"] },
  { what: "search from inside the nested repository", cwd: "repo/nested", args: ["--files"] },
  { what: ".gitignore ignored outside a repository", cwd: "norepo", args: ["--files"] },
  { what: "repository inside a non-repository", cwd: "norepo", args: ["--files", "sub-repo", "inner"] },
  { what: "parent .gitignore applies from a subfolder", cwd: "parent/child", args: ["--files"] },
  { what: "parent .gitignore with a relative root (rg's doubled path)", cwd: "parent", args: ["--files", "child"] },
  { what: "parent .gitignore with ./child", cwd: "parent", args: ["--files", "./child"] },
  { what: "parent .gitignore with an absolute root", cwd: "parent", args: ["--files", "@abs:parent/child"] },
  { what: "parent .gitignore, deeper relative root", cwd: "parent/child", args: ["--files", "deeper"] },
  { what: "-g include", cwd: "repo", args: ["--files", "-g", "*.ts"] },
  { what: "-g include overrides .gitignore", cwd: "repo", args: ["--files", "-g", "*.log"] },
  { what: "-g include beats hidden", cwd: "repo", args: ["--files", "-g", ".hidden*"] },
  { what: "-g '*' walks into .git", cwd: "repo", args: ["--files", "-g", "*"] },
  { what: "-g exclude", cwd: "repo", args: ["--files", "-g", "!*.txt"] },
  { what: "-g exclude folder", cwd: "repo", args: ["--files", "-g", "!src", "-g", "!text"] },
  { what: "-g include and exclude, last wins", cwd: "repo", args: ["--files", "-g", "*.ts", "-g", "!util.ts"] },
  { what: "-g with a slash is anchored to the cwd", cwd: "repo", args: ["--files", "-g", "src/*.ts"] },
  { what: "-g anchored, searching a subfolder", cwd: "repo", args: ["--files", "-g", "src/lib/*.ts", "src"] },
  { what: "-g anchored vs ./ prefix", cwd: "repo", args: ["--files", "-g", "src/lib/*.ts", "./src"] },
  { what: "-g relative to cwd with ../", cwd: "repo/src", args: ["--files", "-g", "*.txt", ".."] },
  { what: "-g **/ and /**", cwd: "repo", args: ["--files", "-g", "**/lib/**"] },
  { what: "-g folder-only include", cwd: "repo", args: ["--files", "-g", "src/"] },
  { what: "-g braces and classes", cwd: "repo", args: ["--files", "-g", "{a,keep}.{txt,log}", "-g", "[Tt]emp[0-9].txt"] },
  { what: "-g '**'", cwd: "repo/src", args: ["--files", "-g", "**"] },
  { what: "-g invalid is an error", cwd: "repo", args: ["--files", "-g", "a{b"] },
  { what: "-g does not filter explicit files", cwd: "repo", args: ["--files", "-g", "*.md", "a.txt", "x.log"] },
  { what: "glob with search", cwd: "repo", args: [...nh, "-g", "*.ts", "-g", "!**/lib/**", "hello|util"] },
  { what: ".ignore and .rgignore precedence", cwd: "repo", args: ["--files", "-g", "!src", "-g", "!text", "-g", "!bin", "-g", "!long"] },

  // Symbolic links.
  { what: "links skipped without --follow", cwd: "repo/links", args: [...nh, "hello"] },
  { what: "--follow: files, folders, dangling, loop", cwd: "repo/links", args: [...nh, "--follow", "hello"], stderr: true },
  { what: "-L --files", cwd: "repo/links", args: ["-L", "--files"], stderr: true },
  { what: "--follow --no-messages still exits 2", cwd: "repo/links", args: [...nh, "--follow", "--no-messages", "hello"], stderr: true },
  { what: "loops from the top", cwd: "loops", args: ["--follow", "--files"], stderr: true },
  { what: "symlink root is followed", cwd: "loops", args: [...nh, "hello", "a-link"] },
  { what: "loop reached through a subfolder root", cwd: "loops", args: ["--follow", "--files", "a/b"], stderr: true },
  { what: "links named explicitly", cwd: "repo/links", args: [...nh, "hello", "file-link.txt", "dir-link"] },

  // Binary files, encodings, line endings.
  { what: "small binary files found by the walk", cwd: "repo/bin", args: [...nh, "hello|ab"] },
  { what: "binary files over 64 KiB found by the walk", cwd: "binlate", args: [...nh, "hello|filler line 00001"] },
  { what: "big binary files with a NUL in the first buffer, found by the walk", cwd: "binlate", args: [...nh, "hello|ab"] },
  { what: "big binary files with a NUL in the first buffer, named explicitly", cwd: "binlate", args: [...nh, "hello|ab", "big-early-nul.bin", "big-exe.bin", "big-bom-nul.txt", "big-utf16.txt"] },
  { what: "binary files named explicitly (memory-mapped)", cwd: "binlate", args: [...nh, "hello|ab", "../repo/bin/early-nul.dat", "late-nul.txt", "../repo/bin/peek.txt", "../repo/bin/peek2.txt", "nul-line-later.txt", "edge.txt", "edge2.txt", "../repo/bin/bom-nul.txt"] },
  { what: "binary files named explicitly with a folder (read)", cwd: "binlate", args: [...nh, "hello|ab", ".", "../repo/bin/early-nul.dat", "late-nul.txt", "../repo/bin/peek.txt", "../repo/bin/peek2.txt", "nul-line-later.txt", "edge.txt", "edge2.txt", "../repo/bin/bom-nul.txt"] },
  { what: "one binary file, no file name", cwd: "binlate", args: ["-n", "hello", "late-nul.txt"] },
  { what: "binary file with a line over 64 KiB (buffer growth)", cwd: "binlong", args: [...nh, "hello|b"] },
  { what: "binary file with a long line, named with a folder", cwd: "binlong", args: [...nh, "hello", "long-line.txt", "."] },
  { what: "CRLF lines keep their CR", cwd: "repo/text", args: [...nh, "crlf"] },
  { what: "CRLF: $ does not match before CR", cwd: "repo/text", args: [...nh, "crlf$|second$"] },
  { what: "lone CR", cwd: "repo/text", args: [...nh, "still"] },
  { what: "UTF-8 BOM is dropped", cwd: "repo/text", args: [...nh, "^hello bom|^bom"] },
  { what: "UTF-16 with BOM is transcoded", cwd: "repo/text", args: [...nh, "utf16|second"] },
  { what: "last line without newline", cwd: "repo/text", args: [...nh, "without"] },
  { what: "blank lines", cwd: "repo/text", args: [...nh, "^$"] },

  // More combinations.
  { what: "--hidden with a glob exclude of hidden folders", cwd: "repo", args: ["--files", "--hidden", "-g", "!.git", "-g", "!.hidden*"] },
  { what: "--hidden --follow together", cwd: "repo/links", args: ["--files", "--hidden", "--follow"], stderr: true },
  { what: "glob with ** in the middle", cwd: "repo", args: ["--files", "-g", "docs/**/*.tmp"] },
  { what: "glob on a file name with spaces and Unicode", cwd: "repo", args: ["--files", "-g", "*space*", "-g", "ünïcödé-*"] },
  { what: "search in a folder and a file at once", cwd: "repo", args: [...nh, "hello", "src", "a.txt", "text/crlf.txt"] },
  // Not `src ... docs`: with a parent .gitignore rule (docs/**/*.tmp) in play, rg 13 itself answers that one
  // differently from run to run (its threads race to build the parent's rules; 38 of 200 runs differ).
  { what: "--files over several roots", cwd: "repo", args: ["--files", "src", "norepo-missing", "text"], stderr: true },
  { what: "no match in an explicit file exits 1", cwd: "repo", args: ["-n", "zzz", "a.txt"] },
  { what: "Perl classes \\d \\s \\w", cwd: "repo/src", args: [...nh, "\\w+\\(\\d+\\)|\\s{2}console"] },
  { what: "negated Unicode class \\P{L}", cwd: "repo/text", args: [...nh, "^\\P{L}+$|\\P{ASCII}{4}"] },
  { what: "escaped meta characters", cwd: "repo/src", args: [...nh, "\\{$|\\(\\)|\\*\\s"] },
  { what: "dot matches a whole character", cwd: "repo/text", args: [...nh, "^.{4}: "] },
  { what: "-i with a class", cwd: "repo", args: [...nh, "-i", "^[h]ELLO [U]"] },
  { what: "many lines, sparse matches", cwd: "long", args: [...nh, "^needle \\d+$"] },
  { what: ".gitignore whitelist of a file in an ignored folder stays ignored", cwd: "repo", args: ["--files", "build", "sub"] },

  // The invocations OpenCode's grep, glob and list tools make.
  { what: "grep tool: -nH --hidden --follow --field-match-separator=| --regexp", cwd: "repo", args: ["-nH", "--hidden", "--follow", "--field-match-separator=|", "--regexp", "hello|TODO", "@abs:repo"], stderr: true },
  { what: "grep tool with an include glob", cwd: "repo", args: ["-nH", "--hidden", "--follow", "--field-match-separator=|", "--regexp", "hello", "--glob", "*.{ts,md}", "@abs:repo/src"] },
  { what: "glob tool: --files --follow --hidden --glob=!.git/*", cwd: "repo", args: ["--files", "--follow", "--hidden", "--glob=!.git/*", "--glob", "**/*.txt"], stderr: true },
  { what: "list tool: --files --hidden --follow with folder excludes", cwd: "repo", args: ["--files", "--hidden", "--follow", "-g", "!.git/", "-g", "!node_modules/", "-g", "!links/", "."] },
];
