/**
 * Permission derivation for the bash tool: what a command line asks before it runs.
 *
 * ```ts
 * const derived = await deriveBashPermissions(command, { root: ctx.directory, workdir, fs: ctx.runtime.fs });
 * for (const ask of permissionAsks(derived)) await ctx.ask(ask); // external_directory first, then bash
 * ```
 *
 * ## What is asked
 * - `bash`: every simple command at any depth (pipelines, `&&`/`||`/`;`, subshells, `$( )`, backticks,
 *   heredoc and here-string bodies, `bash -c '...'` and `eval '...'` strings, which are parsed in turn) gives
 *   its text, redirections included, as a pattern, and `<arity prefix> *` as its "always" pattern (the
 *   BashArity table in ./arity.ts). `cd` alone asks nothing here, as in OpenCode.
 * - Stricter readings of the same command are added as further patterns of the same ask: without its leading
 *   `VAR=value` assignments (`CI=true git commit -m x` also gives `git commit -m x`), and without wrappers that
 *   run their arguments as a command (`sudo`, `env`, `command`, `builtin`, `exec`, `nice`, `nohup`, `time`,
 *   `timeout`, `stdbuf`, `xargs`...). The permission engine denies a request if ANY pattern is denied and asks
 *   if any asks (src/tools/permission/engine.ts), so the strictest reading wins and a prefix cannot slip a
 *   command past a rule written for it. Each reading brings its own "always" pattern
 *   (`CI=true git commit *` and `git commit *`), so one "always" covers the next identical call; note that
 *   "always" on `sudo rm -rf build` therefore also approves `rm *`, which is less than `sudo *` it approves.
 * - Every reading is also given as the shell will run it (./readings.ts): words after quote removal and
 *   escapes (`$'\x72m'` included), continuations joined, one space between words, the name by its base name,
 *   git's own options before its subcommand left out. `"git" co''mmit`, `g\it commit`, `git -C . commit` and
 *   `/usr/bin/git commit` all meet `git commit *`. The commands of `find -exec/-execdir/-ok/-okdir` are
 *   readings too; `find -delete` adds `rm <start points>` and `rm -rf <start points>`, and `unlink x` adds
 *   `rm x` (unlink keeps OpenCode's arity, `unlink *`, for its own reading); these equivalents bring no
 *   "always", so approving a find never approves `rm *`.
 * - A command that cannot be matched against rules adds `(unresolved) <its text>` to the bash ask: a name
 *   made at run time (`$x`, `$(echo rm)`, `${R:-rm}`, a glob), a word of its arity prefix made at run time
 *   (`git "$SUB"`), a shell reading its input (`| sh`, `sh <<< ...`), `eval`/`bash -c`/`trap`/`watch` text not
 *   known before running, an interpreter's inline code (`python3 -c`, `perl -e`, `node -e`, a program on its
 *   input), a sed or awk program that writes, reads other files or runs commands, a `git -c alias.*`. Such
 *   a pattern is allowed only by a rule that names it (`"(unresolved) *": "allow"`): a catch-all allow asks
 *   (src/tools/permission/unresolved.ts).
 * - `external_directory`: paths outside the workspace, as `<real folder>/*` globs (a folder asks for itself, a
 *   file for its folder), judged on where they really lead: symlinks and `..` are resolved component by
 *   component through the runtime's `realpath` (src/tools/permission/external-directory.ts), paths that do
 *   not exist yet are judged by their nearest existing ancestor plus the rest.
 *
 * ## Which paths are judged
 * Every argument of every command (./arguments.ts): a word that is no path resolves inside and asks nothing,
 * so `head ../x`, `grep -r x ..`, `base64 link/x` ask. Values glued to options too (`--output=../x`,
 * `dd if=../x`, `-o/tmp/x`, `-I../inc`); a word only known at run time asks, except the
 * `"$(cat <<'EOF' ... EOF)"` idiom. Not for echo, printf and a few builtins that never open their arguments
 * (their globs still are), only file-test operands for `test`, `[` and `[[ ]]`, and not the pattern or program
 * that grep, sed and awk take first. The operands of cd, pushd, rm, cp, mv, mkdir, touch, chmod, chown,
 * chgrp, cat, ln, tee, truncate, rmdir are read more closely (after
 * `--` everything is an operand; `--opt=value` and glued `-t/dir` values are judged too), whether the command
 * is written `rm`, `\rm`, `"r"m`, `/bin/rm` or behind a wrapper; a symlink's target from the link's folder as
 * well as from the shell's; every redirection target (`>`, `>>`, `2>`, `&>`, `>|`, `<`, `<>`; `>&2` style
 * descriptor copies are not files); the script of `source`/`.` and of `bash script.sh`; find's starting
 * points and `-fprint` files; the workdir. `/dev/null` and its siblings (stdin, stdout, stderr, tty, zero,
 * random, urandom, fd/N) are never asked about. An operand that is a link out of the workspace asks even
 * for `rm`, which would only remove the link: the user sees the link, and `rm link/` would follow it.
 *
 * Relative paths are taken from every folder the shell may be in at that point: the workdir, then wherever a
 * `cd` in the same line leads (`&&` and `||` followed exactly, `;` keeps both possibilities, subshells,
 * pipelines and `$( )` keep their cd to themselves, loops are followed to a fixpoint, nothing after a trusted
 * `exit` runs). A `cd` is judged both as bash reads it (logically: `link/..` is the folder holding the link)
 * and as the kernel does. Through `command`/`builtin`/`time` a cd counts; through `env`, `sudo`, `nohup`...
 * it is a separate program, so the folder stays where it was. A line continuation is read as bash reads it:
 * inside a word (`.\<newline>./x`) it joins, after a space (`rm -rf \<newline>../x`) it separates.
 *
 * ## What cannot be judged asks
 * These become an `external_directory` pattern `(unresolved) <the text as written>` with no "always"
 * pattern (there is no folder to remember), so the user sees exactly what is at stake and a rule such as
 * `"(unresolved) *": "deny"` can refuse them all:
 * - a path argument holding `$VAR`, `${...}`, `$(...)`, backticks, `$'...'` escapes, `~` (also after `=`/`:`),
 *   or a brace expansion; a glob in a folder component or a `**` (a glob in the last component is expanded
 *   against the folder, matching dotfiles and `..` generously, and every match is judged);
 * - `eval`, `trap`, `watch`, `su -c` and `bash -c`/`sh -c`/`zsh -c`... text that is not literal (literal text
 *   is parsed and judged like the rest), a shell reading its input (`curl ... | sh`), `xargs` feeding a path
 *   command, `find -L`/`-follow`, `find -exec` with a command that follows links (anything but rm, rmdir, mv
 *   and a few read-only ones), `cp`/`chmod`/`chown` recursing with `-L`/`-H`;
 * - options that take their paths from somewhere not read here or rename them on the way: `curl -K`,
 *   `tar -T`/`--files-from`/`-P`/`--transform` (and tar's command-running options), `zip -@`,
 *   `rsync --files-from`, cpio; SQL given to sqlite3 or duckdb; wget's `-i`, `-e`, `--config`; git's remote
 *   programs (`clone -u`, `--upload-pack`, `--receive-pack`) and `-c` keys that may run a command; curl's
 *   `.curlrc`, and git's and wget's program and config variables, when the line sets where they come from
 *   (`HOME=. curl`, `GIT_SSH_COMMAND=...`) (./rules/);
 * - a `file:` URL that names a host, a pattern, or no absolute path, and git's `<transport>::` remotes (a
 *   plain `file:///x`, `FILE://localhost/x` is judged as the path `/x`, ./urls.ts);
 * - a command whose name is not known (`$CMD ../x`: every argument is then judged as a path), and every
 *   command once `shopt -s expand_aliases` appeared;
 * - `cd` with no argument (`$HOME` is the workspace on the embedded backend but the user's home on node, and
 *   the derivation does not see the backend's environment), `cd -` (`$OLDPWD`),
 *   `pushd +N`, `cd` to any of the above, and `cd name` when CDPATH is assigned in the line. After such a cd,
 *   and after `popd`, `source` or an unknown command, the folder is unknown and any later relative path asks.
 *
 * ## Known limits
 * - Programs are not read: `python x.py`, `make`, `npm test`, a script run as `./x.sh` or `bash x.sh` may
 *   touch anything and run any command, whatever the rules say about that command. Their paths given as
 *   arguments are judged; what they do inside is not.
 * - A program a name stands for is not known: a git alias in a config file, `PATH=.:$PATH ls` running a
 *   local `ls`, a function defined in a sourced file.
 * - Paths are judged as the files are when the command is derived. A link made during the run by something
 *   other than `ln` (`tar x`, `git checkout`, `python -c`) is not foreseen.
 * - A CDPATH inherited from the environment is not visible here, nor a BASH_ENV that a nested `bash -c`
 *   would source first; the bash tool should run commands with both unset.
 * - Running a program is not a path: `/opt/x/bin/tool` or `../bin/tool` as the command name asks nothing here.
 * - A command line that tree-sitter-bash cannot parse is refused with "Failed to parse command: ..." rather
 *   than judged in part.
 */
export { BASH_ARITY, bashArityPrefix } from "./arity.js";
export { BashParseError, bashParser, parseBash, setBashWasmLocation } from "./parser.js";
export { type BashPermissions } from "./derive.js";
export { UNRESOLVED, type DeriveFs } from "./paths.js";
export { deriveBashPermissions, permissionAsks } from "./permissions.js";
