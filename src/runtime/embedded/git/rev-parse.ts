import { relative } from "pathe";
import { abbrev, currentBranch, findRepo, GitFatal, resolveRevision, type GitEnv, type Out } from "./repo.js";

export async function revParse(args: string[], env: GitEnv, out: Out): Promise<number> {
  const repo = await findRepo(env);
  let short = false;
  let abbrevRef = false;
  let quiet = false;
  let verify = false;
  for (const arg of args) {
    if (arg === "--short" || /^--short=\d+$/.test(arg)) short = verify = true;
    else if (arg === "--abbrev-ref" || arg === "--abbrev-ref=strict") abbrevRef = true;
    else if (arg === "--verify") verify = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "--show-toplevel") out.out(`${repo.dir}\n`);
    else if (arg === "--git-dir") out.out(`${repo.cwd === repo.dir ? ".git" : repo.gitdir}\n`);
    else if (arg === "--absolute-git-dir") out.out(`${repo.gitdir}\n`);
    else if (arg === "--is-inside-work-tree") out.out("true\n");
    else if (arg === "--is-inside-git-dir" || arg === "--is-bare-repository") out.out("false\n");
    else if (arg === "--show-prefix") out.out(`${relative(repo.dir, repo.cwd) === "" ? "" : `${relative(repo.dir, repo.cwd)}/`}\n`);
    else if (arg === "--show-cdup") out.out(`${relative(repo.cwd, repo.dir) === "" ? "" : `${relative(repo.cwd, repo.dir)}/`}\n`);
    else if (arg.startsWith("-"))
      throw new GitFatal(
        `unknown option '${arg}' for git rev-parse (supported here: --short, --abbrev-ref, --verify, --show-toplevel, --git-dir, --is-inside-work-tree, --show-prefix)`,
        129,
      );
    else {
      let oid: string;
      try {
        oid = await resolveRevision(repo, arg);
      } catch (error) {
        if (quiet) return 1;
        if (verify) throw new GitFatal("Needed a single revision");
        // git echoes the argument it could not take before saying why.
        out.out(`${arg}\n`);
        throw error;
      }
      if (abbrevRef) out.out(`${arg === "HEAD" || arg === "@" ? ((await currentBranch(repo)) ?? "HEAD") : arg}\n`);
      else out.out(`${short ? abbrev(oid) : oid}\n`);
    }
  }
  return 0;
}
