import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "pathe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../../../src/runtime/node/index.js";
import type { Runtime } from "../../../src/runtime/types.js";
import { deriveBashPermissions, UNRESOLVED, type BashPermissions } from "../../../src/tools/bash/index.js";
import { contains } from "../../../src/tools/permission/external-directory.js";

/**
 * The promise: no path in a bash command line leaves the workspace without an external_directory ask.
 *
 * Each attack names where it leads: `outside` (a folder beside the workspace, also reachable through the
 * symlink `link` inside the workspace), `parent` (the folder holding the workspace), `somewhere` (out, by a
 * route that lands elsewhere) or `unresolved` (cannot be known before running, so it must ask as such). The
 * same lines run against real files on the node runtime and against the embedded runtime's file system.
 * Controls that stay inside prove the suite is not passing by asking about everything.
 */
type Lead = "outside" | "parent" | "somewhere" | "unresolved";

const attacks: [command: string, lead: Lead][] = [
  // plain and chained `..`
  ["cat ../outside/secret", "outside"],
  ["cat sub/../../outside/secret", "outside"],
  ["cat ./sub/./../../outside/secret", "outside"],
  ["rm -rf ../", "parent"],
  ["rm -- ../outside/secret", "outside"],
  ["cat -- -/../../outside/secret", "outside"],
  ["mkdir -p ../outside/new/deep", "outside"],
  ["cat ///etc/passwd", "somewhere"],
  // quoting tricks
  ["cat '..'/outside/secret", "outside"],
  ['cat ".."/outside/secret', "outside"],
  ["cat .''./outside/secret", "outside"],
  ["cat \\.\\./outside/secret", "outside"],
  ["cat $'..'/outside/secret", "outside"],
  ["cat .\\\n./outside/secret", "outside"],
  ['"c"at ../outside/secret', "outside"],
  ["c\\\nat ../outside/secret", "outside"],
  ["echo pwned > .\\\n./outside/new-file", "outside"],
  ["/bin/cat ../outside/secret", "outside"],
  // $'...' escapes are decoded as bash does: this is ../outside/secret
  ["cat $'\\x2e\\x2e'/outside/secret", "outside"],
  ["cat {..,.}/outside/secret", "unresolved"],
  // symlinks out of the workspace
  ["cat link/secret", "outside"],
  ["cat link", "outside"],
  ["cd link && cat secret", "outside"],
  ["cd link; rm -rf *", "outside"],
  ["cat link/*", "outside"],
  ["cat li*/secret", "unresolved"],
  ["cp link/secret stolen.txt", "outside"],
  ["touch link/new-file", "outside"],
  ["chmod 777 link/secret", "outside"],
  ["chown me link/secret", "outside"],
  ["find link -delete", "outside"],
  ["find -L . -exec cat {} +", "unresolved"],
  ["ln -s ../outside escape && cat escape/secret", "outside"],
  ["cd link/.. && cat outside/secret", "somewhere"],
  // redirections
  ["echo pwned > ../outside/new-file", "outside"],
  ["echo pwned >> link/secret", "outside"],
  ["echo pwned 2> link/err", "outside"],
  ["echo pwned &> link/all", "outside"],
  ["cat < link/secret", "outside"],
  ["tee ../outside/x < a.txt", "outside"],
  ["{ echo a; } > link/block", "outside"],
  // nested shells and evaluated text
  ["bash -c 'cat ../outside/secret'", "outside"],
  ['sh -c "cd ..; rm -rf outside"', "parent"],
  ['zsh -c "$X"', "unresolved"],
  ["bash --rcfile x -c 'cat ../outside/secret'", "outside"],
  ["bash -x -lc 'cat ../outside/secret'", "outside"],
  ["bash -o errexit -c 'cat ../outside/secret'", "outside"],
  ["eval cat ../outside/secret", "outside"],
  ['eval "$CMD"', "unresolved"],
  ["echo 'cat ../outside/secret' | bash", "unresolved"],
  ["trap 'rm -rf ../outside' EXIT", "outside"],
  ["f() { cat ../outside/secret; }; f", "outside"],
  ["source ../outside/script.sh", "outside"],
  [". link/script.sh", "outside"],
  // expansions
  ['cat "$HOME/.ssh/id_rsa"', "unresolved"],
  ["cat ~/.bashrc", "unresolved"],
  ["cat ~root/.bashrc", "unresolved"],
  ["cat $(echo ..)/outside/secret", "unresolved"],
  ["cat `echo ..`/outside/secret", "unresolved"],
  ["X=..; cat $X/outside/secret", "unresolved"],
  ["for d in ..; do cat $d/outside/secret; done", "unresolved"],
  ["$CMD ../outside/secret", "outside"],
  // env prefixes and wrappers
  ["CI=1 cat ../outside/secret", "outside"],
  ["env cat link/secret", "outside"],
  ["env -C .. cat outside/secret", "unresolved"],
  ["command rm -rf ../outside", "outside"],
  ["builtin cd .. && rm -rf outside", "parent"],
  ["sudo -u root cat link/secret", "outside"],
  ["exec cat ../outside/secret", "outside"],
  ["nohup rm -rf ../outside &", "outside"],
  ["time cat link/secret", "outside"],
  ["ls | xargs rm", "unresolved"],
  ["busybox cat ../outside/secret", "outside"],
  ["watch -n 1 cat ../outside/secret", "outside"],
  ["su - root -c 'cat ../outside/secret'", "outside"],
  ["chmod -RL 777 .", "unresolved"],
  ["cp -rL . ../copy", "unresolved"],
  ["cat **", "unresolved"],
  // what follows exit does not run, but `return` outside a function and a redefined exit do not stop anything
  ["return; cat ../outside/secret", "outside"],
  ["exit() { :; }; exit; cat ../outside/secret", "outside"],
  ["enable -n exit; exit; cat ../outside/secret", "outside"],
  // a cd through a wrapper that runs it as a separate program leaves this shell where it was
  ["env cd sub && cat ../x", "parent"],
  ["mkdir -p sub/deep && nohup cd sub/deep && cat ../../x", "somewhere"],
  // cd in all its forms
  ["cd -- ../outside && cat secret", "outside"],
  ["cd - && cat secret", "unresolved"],
  ["cd && cat .bashrc", "unresolved"],
  ["cd //; cat etc/passwd", "somewhere"],
  ["cd sub/../.. && cat outside/secret", "parent"],
  ["(cd ..; cat outside/secret)", "parent"],
  ["pushd .. && cat outside/secret", "parent"],
  ["while true; do cd ..; done", "parent"],
  ['cd "$(mktemp -d)" && touch x', "unresolved"],
  ["CDPATH=.. cd outside && cat secret", "unresolved"],
  // option values
  ["cp --target-directory=../outside a.txt", "outside"],
  ["cp -t ../outside a.txt", "outside"],
  ["cp -t../outside a.txt", "outside"],
];

const controls = [
  "cat a.txt",
  "cd sub && cat ../a.txt",
  "cat sub/../a.txt",
  "cat ./a.txt sub/..hidden",
  "echo hi > /dev/null 2>&1",
  "cp a.txt sub/ && mv sub/a.txt sub/b.txt",
  "mkdir -p sub/new/deep && touch sub/new/deep/x",
  "git status && npm test > out.log 2>&1",
  "find . -name '*.o' -delete",
  "rm -rf sub/*",
  "bash -c 'cat a.txt'",
  "CI=1 cat a.txt",
  "(cd sub && cat ../a.txt) && cat a.txt",
  "cd sub || exit 1; cat ../a.txt",
];

interface Fixture {
  runtime: Runtime;
  root: string;
  outside: string;
  cleanup(): Promise<void>;
}

async function populate(runtime: Runtime, root: string, outside: string): Promise<void> {
  await runtime.fs.mkdir(`${root}/sub`, { recursive: true });
  await runtime.fs.mkdir(outside, { recursive: true });
  await runtime.fs.writeFile(`${root}/a.txt`, "inside\n");
  await runtime.fs.writeFile(`${outside}/secret`, "secret\n");
  await runtime.fs.symlink(outside, `${root}/link`);
}

const fixtures: [string, () => Promise<Fixture>][] = [
  [
    "node (a real temp folder)",
    async () => {
      const base = await realpath(await mkdtemp(join(tmpdir(), "wb-bash-escape-")));
      await mkdir(join(base, "workspace"));
      const root = join(base, "workspace");
      const runtime = createNodeRuntime({ root });
      const outside = join(base, "outside");
      await populate(runtime, root, outside);
      return { runtime, root, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
    },
  ],
  [
    "embedded",
    async () => {
      const runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
      const outside = join(dirname(runtime.root), "outside");
      await populate(runtime, runtime.root, outside);
      return { runtime, root: runtime.root, outside, cleanup: () => runtime.dispose() };
    },
  ],
];

function escapes(result: BashPermissions, root: string): string[] {
  return result.externalDirectory.patterns.filter((p) => !p.startsWith(UNRESOLVED) && !contains(root, p.slice(0, -2) || "/"));
}

describe.each(fixtures)("no path leaves the workspace unasked: %s", (_name, setup) => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await setup();
    // The fixture itself must be what the attacks assume: the link really leads out.
    expect(contains(fixture.root, await fixture.runtime.fs.realpath(`${fixture.root}/link`))).toBe(false);
  });
  afterAll(() => fixture.cleanup());

  const derive = (command: string) => deriveBashPermissions(command, { root: fixture.root, workdir: fixture.root, fs: fixture.runtime.fs });

  it("has a suite of dozens of attacks", () => {
    expect(attacks.length).toBeGreaterThanOrEqual(30);
  });

  it.each(attacks)("%j asks (%s)", async (command, lead) => {
    const result = await derive(command);
    const { patterns } = result.externalDirectory;
    expect(patterns.length).toBeGreaterThan(0);
    if (lead === "unresolved") {
      expect(patterns.some((p) => p.startsWith(UNRESOLVED))).toBe(true);
      return;
    }
    const out = escapes(result, fixture.root);
    expect(out.length).toBeGreaterThan(0);
    if (lead === "outside") expect(out.some((p) => p === `${fixture.outside}/*` || p.startsWith(`${fixture.outside}/`))).toBe(true);
    if (lead === "parent") expect(out).toContain(join(dirname(fixture.root), "*"));
  });

  it.each(controls)("%j stays inside and asks nothing", async (command) => {
    const result = await derive(command);
    expect(result.externalDirectory.patterns).toEqual([]);
  });
});
