/**
 * Real bash as the judge of what a spelling runs: the command line is run by /bin/bash in a scratch folder,
 * and what it did is looked at afterwards (a folder gone, a commit made). A test that claims
 * `r''m -rf x` is rm can then show that bash agrees, rather than trusting our own parser twice.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const GIT_ENV = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

async function scratch(): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), "wb-oracle-")));
}

/** Whether bash, running `command` with `victim` standing for a folder holding `victim/file`, removes it. */
export async function bashDeletes(command: (victim: string) => string, what: "folder" | "file" = "folder"): Promise<boolean> {
  const dir = await scratch();
  try {
    await mkdir(join(dir, "victim"));
    await writeFile(join(dir, "victim", "file"), "x");
    await run("bash", ["-c", command("victim")], { cwd: dir, timeout: 10_000 }).catch(() => undefined);
    return !existsSync(join(dir, "victim", what === "folder" ? "" : "file"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether bash, running `command` in a repository with one staged file, makes a commit. */
export async function bashCommits(command: string): Promise<boolean> {
  const dir = await scratch();
  try {
    const env = { ...process.env, ...GIT_ENV };
    await run("git", ["init", "-q"], { cwd: dir, env });
    await writeFile(join(dir, "f"), "x");
    await run("git", ["add", "f"], { cwd: dir, env });
    await run("bash", ["-c", command], { cwd: dir, env, timeout: 10_000 }).catch(() => undefined);
    return await run("git", ["rev-parse", "--verify", "-q", "HEAD"], { cwd: dir, env }).then(
      () => true,
      () => false,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
