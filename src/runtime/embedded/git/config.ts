import git from "isomorphic-git";
import { findRepo, GitFatal, type GitEnv, type Out } from "./repo.js";

/**
 * `git config` on the repository's own config (the embedded shell has no global one: `--global`
 * writes the repository's, which is where `git commit` looks).
 */
export async function config(args: string[], env: GitEnv, out: Out): Promise<number> {
  let action: "auto" | "get" | "unset" | "list" = "auto";
  const rest: string[] = [];
  for (const arg of args) {
    if (arg === "--get") action = "get";
    else if (arg === "--unset") action = "unset";
    else if (arg === "-l" || arg === "--list") action = "list";
    else if (arg === "--global" || arg === "--local" || arg === "--system" || arg === "--add" || arg === "--replace-all") continue;
    else if (arg.startsWith("-"))
      throw new GitFatal(
        `unknown option '${arg}' for git config (supported here: <key>, <key> <value>, --get, --unset, --list, --global)`,
        129,
      );
    else rest.push(arg);
  }
  let repo;
  try {
    repo = await findRepo(env);
  } catch (error) {
    if (error instanceof GitFatal) {
      throw new GitFatal(
        "not in a git directory (the embedded shell keeps git settings in the repository's .git/config: run `git init` first)",
      );
    }
    throw error;
  }
  const where = { fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir };
  if (action === "list") {
    const text = new TextDecoder().decode(await repo.files.readFile(`${repo.gitdir}/config`));
    let section = "";
    for (const line of text.split("\n")) {
      const header = /^\s*\[([^\s\]"]+)(?:\s+"([^"]*)")?\]/.exec(line);
      if (header) section = header[2] === undefined ? header[1]!.toLowerCase() : `${header[1]!.toLowerCase()}.${header[2]}`;
      const entry = /^\s*([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(line);
      if (entry && section) out.out(`${section}.${entry[1]!.toLowerCase()}=${(entry[2] ?? "true").trim()}\n`);
    }
    return 0;
  }
  const [key, value] = rest;
  if (key === undefined) throw new GitFatal("no key given: use git config <key> [<value>]", 129);
  if (!/^[A-Za-z][\w-]*(\.[^\n]+)?\.[A-Za-z][\w-]*$/.test(key)) {
    out.err(`error: key does not contain a section: ${key}\n`);
    return 2;
  }
  if (action === "unset") {
    await git.setConfig({ ...where, path: key, value: undefined });
    return 0;
  }
  if (value === undefined || action === "get") {
    const found: unknown = await git.getConfig({ ...where, path: key });
    if (found === undefined || found === null) return 1;
    out.out(`${String(found)}\n`);
    return 0;
  }
  await git.setConfig({ ...where, path: key, value });
  return 0;
}
