import git from "isomorphic-git";
import { defineCommand, type Command } from "just-bash/browser";
import { resolve } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";
import { add } from "./add.js";
import { branch } from "./branch.js";
import { checkout, restore, switchCommand } from "./checkout.js";
import { commit } from "./commit.js";
import { config } from "./config.js";
import { diff } from "./diff.js";
import { createGitFs } from "./git-fs.js";
import { init } from "./init.js";
import { log } from "./log.js";
import { GitFatal, Out, type GitEnv } from "./repo.js";
import { reset } from "./reset.js";
import { revParse } from "./rev-parse.js";
import { rm } from "./rm.js";
import { show } from "./show.js";
import { status } from "./status.js";
import { errorMessage } from "../../../base/error-message.js";

type Subcommand = (args: string[], env: GitEnv, out: Out) => Promise<number>;

const subcommands: Record<string, Subcommand> = {
  add,
  branch,
  checkout,
  commit,
  config,
  diff,
  init,
  log,
  reset,
  restore,
  "rev-parse": revParse,
  rm,
  show,
  status,
  switch: switchCommand,
};

/** Real git commands this one does not offer, so that asking for them says so rather than "not a git command". */
const elsewhere = new Set([
  "am",
  "apply",
  "bisect",
  "blame",
  "cherry-pick",
  "clean",
  "clone",
  "describe",
  "fetch",
  "format-patch",
  "gc",
  "grep",
  "merge",
  "mv",
  "notes",
  "pull",
  "push",
  "rebase",
  "reflog",
  "remote",
  "revert",
  "stash",
  "submodule",
  "tag",
  "worktree",
]);

function usage(): string {
  return (
    "usage: git [-C <path>] [-c <name>=<value>] <command> [<args>]\n\n" +
    "The embedded shell's git (isomorphic-git over the workspace files) offers:\n" +
    `   ${Object.keys(subcommands).sort().join(", ")}\n`
  );
}

/**
 * `git` for the embedded shell: isomorphic-git over the same files the shell sees, printing what
 * git prints for the common commands and flags.
 */
export function createGitCommand(files: WorkspaceFs): Command {
  const fs = createGitFs(files);
  return defineCommand("git", async (argv, ctx) => {
    const out = new Out();
    const env: GitEnv = { fs, files, cwd: ctx.cwd, env: ctx.env, overrides: new Map() };
    let i = 0;
    for (; i < argv.length; i++) {
      const arg = argv[i]!;
      if (arg === "-C") env.cwd = resolve(env.cwd, argv[++i] ?? ".");
      else if (arg === "-c") {
        const setting = argv[++i] ?? "";
        const eq = setting.indexOf("=");
        env.overrides.set((eq < 0 ? setting : setting.slice(0, eq)).toLowerCase(), eq < 0 ? "true" : setting.slice(eq + 1));
      } else if (arg === "--no-pager" || arg === "-P" || arg === "--no-replace-objects") continue;
      else if (arg === "--version" || arg === "version")
        return { stdout: `git version ${git.version()} (isomorphic-git: the embedded shell's git)\n`, stderr: "", exitCode: 0 };
      else if (arg === "--help" || arg === "-h" || arg === "help") return { stdout: usage(), stderr: "", exitCode: 0 };
      else if (arg.startsWith("-")) return { stdout: "", stderr: `unknown option: ${arg}\n${usage()}`, exitCode: 129 };
      else break;
    }
    const name = argv[i];
    if (name === undefined) return { stdout: usage(), stderr: "", exitCode: 1 };
    const run = subcommands[name];
    if (!run) {
      const stderr = elsewhere.has(name)
        ? `git: '${name}' is not available in the embedded shell's git. It offers: ${Object.keys(subcommands).sort().join(", ")}.\n`
        : `git: '${name}' is not a git command. See 'git --help'.\n`;
      return { stdout: "", stderr, exitCode: 1 };
    }
    try {
      const exitCode = await run(argv.slice(i + 1), env, out);
      return { stdout: out.stdout, stderr: out.stderr, exitCode };
    } catch (error) {
      if (error instanceof GitFatal) {
        return { stdout: out.stdout, stderr: out.stderr + (error.raw ?? `fatal: ${error.message}\n`), exitCode: error.exitCode };
      }
      const message = errorMessage(error);
      return { stdout: out.stdout, stderr: `${out.stderr}fatal: ${message}\n`, exitCode: 128 };
    }
  });
}
