/**
 * What the path analysis knows about particular commands: which take paths, which run another command
 * (wrappers), which run shell text, and which options carry a value glued to them.
 */

/** Commands whose operands are paths. The issue names the first nine; the rest close obvious side doors. */
export const PATH_COMMANDS: ReadonlySet<string> = new Set([
  "cd",
  "rm",
  "cp",
  "mv",
  "mkdir",
  "touch",
  "chmod",
  "chown",
  "cat",
  // Beyond the list: `ln` makes links out of the workspace that a later command walks through; `tee` and
  // `truncate` write, `rmdir` deletes, `pushd` is a cd, `chgrp` is chown's sibling.
  "ln",
  "tee",
  "truncate",
  "rmdir",
  "pushd",
  "chgrp",
]);

/** Commands that change the shell's folder for what follows. */
export const CD_COMMANDS: ReadonlySet<string> = new Set(["cd", "pushd"]);

/** Shells whose `-c` string is shell text we can parse in turn. */
export const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "yash"]);

/**
 * Short options (letters) whose value may be glued on (`-t/etc`), so that the value is judged as a path even
 * though the word starts with `-`. Long options written `--name=value` always have their value judged.
 */
export const GLUED_PATH_OPTIONS: Readonly<Record<string, string>> = {
  cp: "t",
  mv: "t",
  ln: "t",
  touch: "r",
  truncate: "r",
};

export interface Wrapper {
  /** Short options that take the next word (or the rest of the word) as their value. */
  valued: string;
  /** Long options that take the next word as their value when written without `=`. */
  valuedLong?: readonly string[];
  /** Positional words before the command (timeout's duration). */
  positional?: number;
  /** `NAME=value` words before the command are assignments, not the command (env). */
  assignments?: boolean;
  /** Options that make the wrapped command start in another folder (`env -C`, `sudo -D`). */
  chdir?: { short: string; long: readonly string[] };
  /** Options that make it read the command from one string (`env -S`). */
  splitsString?: { short: string; long: readonly string[] };
}

/** Commands that run the command named by their arguments, in the same folder unless said otherwise. */
export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  command: { valued: "" },
  builtin: { valued: "" },
  exec: { valued: "a" },
  nohup: { valued: "" },
  setsid: { valued: "" },
  // The reserved word `time` takes a whole pipeline, assignments included (`time A=1 rm x`).
  time: { valued: "fo", assignments: true },
  nice: { valued: "n", valuedLong: ["--adjustment"] },
  ionice: { valued: "cnp", valuedLong: ["--class", "--classdata", "--pid"] },
  stdbuf: { valued: "ioe", valuedLong: ["--input", "--output", "--error"] },
  timeout: { valued: "sk", valuedLong: ["--signal", "--kill-after"], positional: 1 },
  coproc: { valued: "" },
  env: {
    valued: "uCS",
    valuedLong: ["--unset", "--chdir", "--split-string"],
    assignments: true,
    chdir: { short: "C", long: ["--chdir"] },
    splitsString: { short: "S", long: ["--split-string"] },
  },
  sudo: {
    valued: "ugChpDrtTU",
    valuedLong: [
      "--user",
      "--group",
      "--close-from",
      "--host",
      "--prompt",
      "--chdir",
      "--role",
      "--type",
      "--command-timeout",
      "--other-user",
    ],
    assignments: true,
    chdir: { short: "D", long: ["--chdir"] },
  },
  doas: { valued: "uC" },
  busybox: { valued: "" },
  toybox: { valued: "" },
  // Less common launchers that would otherwise hide `rm` behind an unknown first word.
  flock: {
    valued: "wE",
    valuedLong: ["--wait", "--timeout", "--conflict-exit-code"],
    positional: 1,
    splitsString: { short: "c", long: ["--command"] },
  },
  taskset: { valued: "", positional: 1 },
  chrt: { valued: "T", positional: 1 },
  strace: { valued: "eoOpPsSuXIbaA", valuedLong: ["--output", "--trace", "--signal", "--attach", "--user", "--string-limit"] },
  ltrace: { valued: "eoOpsSuXIbaAnDlLTF", valuedLong: ["--output"] },
  unbuffer: { valued: "" },
  pkexec: { valued: "", valuedLong: ["--user"] },
  runuser: {
    valued: "ugG",
    valuedLong: ["--user", "--group", "--supp-group", "--shell"],
    splitsString: { short: "c", long: ["--command"] },
  },
  caffeinate: { valued: "tw" },
  "xvfb-run": { valued: "nsfepwl", valuedLong: ["--server-num", "--server-args", "--auth-file", "--error-file", "--wait"] },
};

/**
 * Commands that `find -exec` may run on each found path without following a symlink out of the workspace:
 * these act on the link itself. Any other command given a found link would act on what it points to.
 */
export const LINK_SAFE: ReadonlySet<string> = new Set(["rm", "rmdir", "mv", "echo", "printf", "test", "[", "true", "false"]);

/** Writing to these is not leaving the workspace: they are devices every program may use. */
export function isHarmlessDevice(path: string): boolean {
  const squeezed = path.replace(/\/+/g, "/");
  return /^\/dev\/(null|zero|stdin|stdout|stderr|tty|random|urandom|fd\/\d+)$/.test(squeezed);
}

/** Wrappers that run a builtin in this very shell, so a `cd` through them moves it. */
export const IN_THIS_SHELL: ReadonlySet<string> = new Set(["command", "builtin", "time"]);

/** Commands that follow every link below an operand when told to recurse with -L/-H. */
export const FOLLOWS_LINKS_WHEN_RECURSING: ReadonlySet<string> = new Set(["cp", "chmod", "chown", "chgrp"]);

export function recursesThroughLinks(words: (string | null)[]): boolean {
  let recursive = false;
  let follows = false;
  for (const word of words) {
    if (word === null || word === "--") break;
    if (word === "--recursive" || word === "--archive") recursive = true;
    else if (word === "--dereference") follows = true;
    else if (/^-[^-]/.test(word)) {
      if (/[rRa]/.test(word)) recursive = true;
      if (/[LH]/.test(word)) follows = true;
    }
  }
  return recursive && follows;
}
