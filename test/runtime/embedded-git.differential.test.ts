/**
 * The embedded shell's `git` (isomorphic-git) against real git: the same command lines, run in
 * order in a fresh folder by real git and in the embedded runtime, must print the same stdout and
 * stderr and exit the same way. Names, emails and dates are pinned, so the commit ids must match
 * too; the only thing told apart is the folder's own path.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";

const identity = {
  GIT_AUTHOR_NAME: "Ada Lovelace",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada Lovelace",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_AUTHOR_DATE: "@1700000000 +0100",
  GIT_COMMITTER_DATE: "@1700000000 +0100",
};

/** Each step is one command line; what it prints is compared. Files are made with the shell. */
const steps: string[] = [
  "git status",
  "git log",
  "git -c init.defaultBranch=main init",
  "git status",
  "git status -s",
  "git log",
  "git rev-parse --abbrev-ref HEAD",
  "git branch",
  "printf 'alpha\\nbeta\\ngamma\\n' > a.txt; mkdir -p src/deep; echo x > src/deep/x.txt; echo b > b.txt",
  "git status",
  "git status -s",
  "git status --porcelain",
  "cd src && git status && git status -s && git status --porcelain",
  "git add a.txt",
  "git status",
  "git status -s",
  "git diff",
  "git diff --cached",
  "git commit -m 'first commit' -m 'with a body line'",
  "git commit -m 'nothing staged'",
  "git log",
  "git log --oneline",
  "git rev-parse HEAD",
  "git rev-parse --short HEAD",
  "git status",
  "printf 'alpha\\nBETA\\ngamma\\ndelta\\n' > a.txt; git status; git status -s",
  "git diff",
  "git diff --cached",
  "git add -A",
  "git status",
  "git status -s",
  "git diff --cached",
  "git commit -m second",
  "git log --oneline",
  "git log -n 1",
  "git log -1 --format='%H %h %s %an <%ae> %ad'",
  "git log --format='%h %s'",
  "rm b.txt; echo new > c.txt; echo changed >> src/deep/x.txt; git status; git status -s",
  "git diff",
  "git add .",
  "git status",
  "git diff --cached",
  "git diff --cached --stat",
  "git diff --cached --name-only",
  "git commit -m 'third: remove b, add c'",
  "git log --oneline",
  "echo extra >> a.txt; git add a.txt; echo more >> a.txt; git status -s; git diff; git diff --cached",
  "git checkout -- a.txt; git status -s",
  "git commit -qm 'fourth'",
  "git branch feature",
  "git branch",
  "git checkout -b topic",
  "git branch",
  "git rev-parse --abbrev-ref HEAD",
  "echo topic > t.txt; git add t.txt; git commit -m 'on topic'",
  "git log --oneline",
  "git checkout main",
  "git checkout main",
  "ls",
  "git branch -d topic",
  "git branch -D topic",
  "git branch -d feature",
  "git branch",
  "echo dirty > a.txt; git checkout -b other; git status -s",
  "git checkout main",
  "git checkout -- a.txt; git status",
  "git config user.name 'Grace Hopper'; git config user.name",
  "git config user.email",
  "git frobnicate",
  "git diff HEAD~1",
  "git diff HEAD~2 HEAD --stat",
  "git log -2 --oneline",
  "git log -3",
];

/** A second repository: hunks, function context, special files, and the rarer paths of each command. */
const moreSteps: string[] = [
  "git init -q -b main more && cd more && git status",
  "cd more && seq 1 40 | sed 's/^/line /' > long.txt && printf 'int main() {\\n  return 0;\\n}\\n' > main.c && printf 'no newline' > tail.txt && : > empty.txt && printf 'bin\\0ary' > blob.bin && git add . && git commit -m 'files of every kind'",
  "cd more && sed -i 's/^line 5$/line five/; s/^line 30$/line thirty/' long.txt && git diff",
  "cd more && printf 'int main() {\\n  return 1;\\n}\\n' > main.c && printf 'no newline, changed' > tail.txt && git diff main.c tail.txt",
  "cd more && printf 'bin\\0ary2' > blob.bin && echo text > empty.txt && git diff --stat && git diff blob.bin empty.txt",
  "cd more && chmod +x main.c && git diff main.c && git commit -qam 'all of it' && git log --oneline",
  "cd more && git log -1 --format='%s|%b|%an|%ae|%cn|%ce|%at|%ct|%P'",
  "cd more && printf 'ignored.log\\nbuild/\\n' > .gitignore && echo x > ignored.log && mkdir -p build && echo y > build/out && git status -s && git add ignored.log; echo \"exit $?\"",
  'cd more && git add nothing-here; echo "exit $?"',
  "cd more && git add",
  "cd more && mkdir -p pkg/sub && echo a > pkg/sub/a.txt && echo t > pkg/tracked.txt && git add pkg/tracked.txt && git commit -qm 'pkg' && echo b > pkg/sub/b.txt && echo c > pkg/c.txt && git status && git status -s",
  "cd more/pkg && git status && git add . && git status -s && git diff --cached --name-status",
  "cd more && git -C pkg status -s && git rev-parse --show-toplevel && cd pkg && git rev-parse --show-prefix",
  "cd more && git commit -qm 'more pkg' && echo changed > pkg/c.txt && git restore pkg/c.txt && git status -s",
  "cd more && echo staged > pkg/c.txt && git add pkg/c.txt && git restore --staged pkg/c.txt && git status -s && git diff",
  'cd more && git checkout pkg/c.txt && git status -s && git checkout nope; echo "exit $?"',
  "cd more && git switch -c side && echo side > side.txt && git add side.txt && git commit -qm 'side work' && git switch main && ls",
  "cd more && git branch -v && git diff main side --stat && git log side --oneline -2",
  "cd more && git checkout side~1 2>&1 | tail -1 && git status | head -1 && git branch",
  "cd more && git checkout main && git branch -m side renamed && git branch",
  'cd more && echo local > long.txt && git checkout renamed; echo "exit $?"',
  'cd more && git checkout -- long.txt && echo untracked > side.txt && git checkout renamed; echo "exit $?"',
  "cd more && rm side.txt && git commit --allow-empty -m 'empty one' && git log -1 --oneline",
  "cd more && echo amend > amend.txt && git add amend.txt && git commit --amend -m 'amended' && git log --oneline -2",
  "cd more && git log --oneline -- pkg/tracked.txt && git log -n 2 --format=%s",
  'cd more && git commit; echo "exit $?"',
  'cd more && git status --porcelain && git diff --quiet; echo "exit $?"',
  'cd more && echo x >> long.txt && git diff --quiet; echo "exit $?"; git diff --exit-code --stat; echo "exit $?"',
  "cd more && git branch -d renamed; git branch -D renamed; git branch nope..name; git branch --show-current",
  'cd more && git rev-parse --verify nope; echo "exit $?"; git rev-parse HEAD~1 HEAD~2',
  "cd more && git commit --allow-empty -m 'by someone else' --author='Grace Hopper <grace@example.com>' && git log -1",
];

/** A third repository: show, reset and rm. */
const thirdSteps: string[] = [
  "git init -q -b main third && cd third && echo a > a && echo b > b && git add . && git commit -qm one && echo a2 >> a && git commit -qam two && git show",
  "cd third && git show --stat HEAD~1 && git show -s --oneline && git show HEAD:a && git show --name-only && git show HEAD~1:./b",
  'cd third && echo x >> a && git add a && echo y >> b && git reset; echo "exit $?"; git status -s',
  "cd third && git add a && git reset -q && git status -s && git add a && git reset HEAD a && git status -s",
  "cd third && git reset --hard; git status -s; ls",
  "cd third && git reset --soft HEAD~1 && git status -s && git log --oneline",
  "cd third && git reset --hard HEAD && git rm a && git status -s && git reset -q --hard && git status -s",
  'cd third && git rm --cached b && git status -s && git reset -q && echo z >> a && git rm a; echo "exit $?"',
  'cd third && git add a && git rm a; echo "exit $?"; echo w >> a; git rm a; echo "exit $?"; git rm --cached a; echo "exit $?"',
  'cd third && git rm nope; echo "exit $?"; mkdir d && echo 1 > d/1 && git add d && git commit -qm d && git rm d; echo "exit $?"; git rm -r d && git rm -q -f a && git status -s && ls',
  "cd third && git commit -qm 'rm' && git reset --hard HEAD~1 && ls && git log --oneline",
  "cd third && git reset --mixed HEAD~1 && git status -s",
  'cd third && git show nope; echo "exit $?"; git show HEAD:nope; echo "exit $?"',
  "cd third && git log -p && git log --stat --oneline && git log --name-only -1 && git log --name-status --format=%s",
  "cd third && echo a > 'with space.txt' && echo b > 'café \"q\".txt' && git status && git status -s && git add . && git status && git diff --cached --stat && git diff --cached --name-status",
  "cd third && git commit -m 'odd names' && echo x >> 'with space.txt' && echo y >> 'café \"q\".txt' && git diff",
  "cd third && git commit -qam edits && mkdir -p src/lib && echo hello > src/lib/a.txt && echo other > z.txt && : > empty && git add . && git commit -qm 'to move'",
  "cd third && mkdir -p src/util && mv src/lib/a.txt src/util/a.txt && mv z.txt y.txt && mv empty empty2 && git add -A && git status && git status -s && git diff --cached && git diff --cached --stat && git diff --cached --name-status",
  "cd third && echo more >> y.txt && git status -s && git commit -m moved && git show --stat --format=%s && git log --oneline -1 --name-status",
  "cd third && mkdir -p deep/er && mv src/util/a.txt top.txt && mv empty2 deep/er/empty2 && git add -A && git commit -m 'moved again' && git diff HEAD~1 --stat",
  "cd third && git branch zeta && git branch alpha HEAD~1 && git log --oneline --decorate -3 && git log --graph -2 && git log --graph --oneline -3 && git log --format='%h%d' -2",
  "cd third && git checkout -q alpha && git log --oneline --decorate -1 && git log --all --oneline -3 && git checkout -q --detach && git log --decorate --format='%D' -1 && git checkout -q main && git status -s",
];

const normalise = (text: string, root: string) => text.split(root).join("<root>");

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

describe("embedded git against real git", () => {
  let folder: string;
  let home: string;
  let runtime: EmbeddedRuntime;
  const real: Outcome[] = [];
  const embedded: Outcome[] = [];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "workbench-git-real-"));
    home = await mkdtemp(join(tmpdir(), "workbench-git-home-"));
    runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    for (const step of [...steps, ...moreSteps, ...thirdSteps]) {
      const run = spawnSync("bash", ["-c", step], {
        cwd: folder,
        encoding: "utf8",
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: home,
          LANG: "C",
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
          ...identity,
        },
      });
      real.push({ stdout: normalise(run.stdout, folder), stderr: normalise(run.stderr, folder), exitCode: run.status });
      const result = await runtime.exec(step, { env: identity });
      embedded.push({
        stdout: normalise(result.stdout, runtime.root),
        stderr: normalise(result.stderr, runtime.root),
        exitCode: result.exitCode,
      });
    }
  }, 120_000);

  afterAll(async () => {
    await runtime?.dispose();
    await rm(folder, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it.each(steps.map((step, index) => ({ step, index })))("step $index: $step", ({ index }) => {
    expect(embedded[index]).toEqual(real[index]);
  });

  it.each(moreSteps.map((step, index) => ({ step, index })))("second repository, step $index: $step", ({ index }) => {
    expect(embedded[steps.length + index]).toEqual(real[steps.length + index]);
  });

  it.each(thirdSteps.map((step, index) => ({ step, index })))("third repository, step $index: $step", ({ index }) => {
    const at = steps.length + moreSteps.length + index;
    expect(embedded[at]).toEqual(real[at]);
  });

  it("made commits with the very ids real git made", () => {
    const ids = (outcomes: Outcome[]) => outcomes.map((o) => o.stdout.match(/\b[0-9a-f]{40}\b/g) ?? []).flat();
    expect(ids(real).length).toBeGreaterThan(3);
    expect(ids(embedded)).toEqual(ids(real));
  });
});
