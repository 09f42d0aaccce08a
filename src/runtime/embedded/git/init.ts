import git from "isomorphic-git";
import { join, resolve } from "pathe";
import { GitFatal, type GitEnv, type Out } from "./repo.js";

export async function init(args: string[], env: GitEnv, out: Out): Promise<number> {
  let quiet = false;
  let branch = env.overrides.get("init.defaultbranch");
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "-b" || arg === "--initial-branch") branch = args[++i];
    else if (arg.startsWith("--initial-branch=")) branch = arg.slice("--initial-branch=".length);
    else if (arg.startsWith("-"))
      throw new GitFatal(`unknown option '${arg.replace(/^-+/, "")}' for git init (supported here: -q, -b <branch>)`, 129);
    else target = arg;
  }
  if (branch === undefined || branch === "") branch = "main";
  const dir = resolve(env.cwd, target ?? ".");
  const gitdir = join(dir, ".git");
  const existed = await env.files.stat(join(gitdir, "HEAD")).then(
    () => true,
    () => false,
  );
  await env.files.mkdir(dir, { recursive: true });
  await git.init({ fs: env.fs, dir, gitdir, defaultBranch: branch });
  if (!quiet) out.out(`${existed ? "Reinitialized existing" : "Initialized empty"} Git repository in ${gitdir}/\n`);
  return 0;
}
