import { relative } from "pathe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime/types.js";
import { bashBackends } from "../tools/bash/harness.js";
import { bashCommits, bashDeletes } from "./bash-oracle.js";
import { runWithRules } from "./bash-permissions.js";
import { plantSentinel, type Sentinel } from "./sentinel.js";

/**
 * Issue 15, item 6: a `deny` rule for `rm *` or `git commit *` must hold however the command is spelled.
 * Every spelling the issue lists (and the wrappers it names) is run through the real bash tool under rules
 * that allow everything else, leaving the workspace included, so the bash rule is all that stands between
 * the command and the sentinel's folder (`OUT`). A command whose name is made when it runs cannot be matched
 * against any rule: it must be asked, never let through by the `"*": "allow"`.
 *
 * Real bash is the oracle that each spelling is what the case says: run in a scratch folder, it really
 * removes the folder (or the file) or really commits.
 */
type Expect = "denied" | "asked";
type Oracle = "deletes" | "deletes-file" | "commits" | "none";

const cases: [command: string, expected: Expect, oracle: Oracle][] = [
  ["rm -rf OUT", "denied", "deletes"],
  ['"rm" -rf OUT', "denied", "deletes"],
  ["\\rm -rf OUT", "denied", "deletes"],
  ["r'm' -rf OUT", "denied", "deletes"],
  ['r""m -rf OUT', "denied", "deletes"],
  ["$'rm' -rf OUT", "denied", "deletes"],
  ["$'\\x72m' -rf OUT", "denied", "deletes"],
  ["$'\\162\\155' -rf OUT", "denied", "deletes"],
  ["rm\t-rf\tOUT", "denied", "deletes"],
  ["rm    -rf     OUT", "denied", "deletes"],
  ["rm -rf \\\nOUT", "denied", "deletes"],
  ["r\\\nm -rf OUT", "denied", "deletes"],
  ["rm \\\n  -rf \\\n  OUT", "denied", "deletes"],
  ["/bin/rm -rf OUT", "denied", "deletes"],
  ["/usr/bin/rm -rf OUT", "denied", "deletes"],
  ["/usr/bin/../bin/rm -rf OUT", "denied", "deletes"],
  ["find OUT -exec rm -rf {} +", "denied", "deletes"],
  ["find OUT -depth -execdir /bin/rm -rf {} \\;", "denied", "deletes"],
  ["find OUT -ok rm -rf {} \\;", "denied", "none"],
  ["find OUT -delete", "denied", "deletes"],
  ["unlink OUT/sentinel.txt", "denied", "none"],
  ["xargs rm -rf <<< OUT", "denied", "deletes"],
  ["echo OUT | xargs -n1 rm -rf", "denied", "deletes"],
  ["env rm -rf OUT", "denied", "deletes"],
  ["env -i A=1 rm -rf OUT", "denied", "deletes"],
  ["nice -n 5 rm -rf OUT", "denied", "deletes"],
  ["timeout 10 rm -rf OUT", "denied", "deletes"],
  ["nohup rm -rf OUT 2>/dev/null", "denied", "deletes"],
  ["exec rm -rf OUT", "denied", "deletes"],
  ["command rm -rf OUT", "denied", "deletes"],
  ["time rm -rf OUT", "denied", "deletes"],
  ["stdbuf -o0 rm -rf OUT", "denied", "deletes"],
  ["sudo rm -rf OUT", "denied", "none"],
  ["env A=1 nice timeout 5 stdbuf -o0 rm -rf OUT", "denied", "deletes"],
  ["flock .lock rm -rf OUT", "denied", "deletes"],
  ["taskset -c 0 rm -rf OUT", "denied", "deletes"],
  ["chrt -o 0 rm -rf OUT", "denied", "deletes"],
  ["A=1 rm -rf OUT", "denied", "deletes"],
  ["bash -c 'rm -rf OUT'", "denied", "deletes"],
  ["sh -c \"r'm' -rf OUT\"", "denied", "deletes"],
  ["eval 'r''m -rf OUT'", "denied", "deletes"],
  ["true && { rm -rf OUT; }", "denied", "deletes"],
  ["echo $(rm -rf OUT)", "denied", "deletes"],
  ['"git" commit -m x', "denied", "commits"],
  ["g\\it commit -m x", "denied", "commits"],
  ["gi''t commit -m x", "denied", "commits"],
  ['git co""mmit -m x', "denied", "commits"],
  ["git $'commit' -m x", "denied", "commits"],
  ["git\tcommit -m x", "denied", "commits"],
  ["git   commit   -m x", "denied", "commits"],
  ["git \\\ncommit -m x", "denied", "commits"],
  ["/usr/bin/git commit -m x", "denied", "commits"],
  ["CI=true git commit -m x", "denied", "commits"],
  // git's own options before the subcommand do not hide it; an alias made on the command line cannot be read
  ["git -C . commit -m x", "denied", "commits"],
  ["git --no-pager -c user.name=x commit -m x", "denied", "commits"],
  ["git --git-dir=.git commit -m x", "denied", "commits"],
  // made when it runs: asked, whatever "*" allows
  ["x=rm; $x -rf OUT", "asked", "deletes"],
  ["$(echo rm) -rf OUT", "asked", "deletes"],
  ["${R:-rm} -rf OUT", "asked", "deletes"],
  ["`echo rm` -rf OUT", "asked", "deletes"],
  ["echo 'rm -rf OUT' | sh", "asked", "deletes"],
  ["echo 'rm -rf OUT' | bash", "asked", "deletes"],
  ["sh <<< 'rm -rf OUT'", "asked", "deletes"],
  ["c=commit; git $c -m x", "asked", "commits"],
  ["git -c alias.ci=commit ci -m x", "asked", "commits"],
  ["git -c alias.x='!rm -rf OUT' x", "asked", "deletes"],
  ["git -c core.sshCommand='rm -rf OUT' fetch ssh://h/r", "asked", "none"],
  ['eval "$(echo rm) -rf OUT"', "asked", "deletes"],
  ["python3 -c 'import shutil; shutil.rmtree(\"OUT\")'", "asked", "deletes"],
  ['perl -e \'unlink "OUT/file"; rmdir "OUT"\'', "asked", "deletes"],
];

const rules = {
  "*": "allow",
  external_directory: { "*": "allow", "(unresolved) *": "allow" },
  bash: { "*": "allow", "rm *": "deny", "git commit *": "deny" },
};

describe("real bash agrees with each case", () => {
  it.each(cases.filter(([, , oracle]) => oracle !== "none"))("%j really does it (%s, %s)", async (command, _expected, oracle) => {
    if (oracle === "commits") expect(await bashCommits(command)).toBe(true);
    else expect(await bashDeletes((victim) => command.replaceAll("OUT", victim), oracle === "deletes" ? "folder" : "file")).toBe(true);
  });

  it("and the oracle can say no", async () => {
    expect(await bashDeletes((victim) => `ls ${victim}`)).toBe(false);
    expect(await bashCommits("git status")).toBe(false);
  });
});

const backends = bashBackends.filter((b) => b.name === "node" || b.name === "embedded");

describe.each(backends)("bash: deny rules hold against every spelling ($name)", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  let sentinel: Sentinel;

  beforeEach(async () => {
    ({ runtime, cleanup } = await backend.create());
    sentinel = await plantSentinel(runtime);
  });
  afterEach(async () => {
    await sentinel.dispose();
    await cleanup();
  });

  const spell = (command: string) => command.replaceAll("OUT", relative(runtime.root, sentinel.dir));

  it("has the spellings of the issue", () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
  });

  it.each(cases)("%j is %s", async (command, expected) => {
    const outcome = await runWithRules(runtime, spell(command), rules);
    expect(outcome.kind).toBe(expected);
    if (outcome.kind === "asked") expect(outcome.asked.permission).toBe("bash");
    await sentinel.assertUntouched();
  });

  it.each(["ls OUT", "git status || true", "find OUT -name x -print", "env A=1 ls OUT", "echo rm -rf OUT", "command -v rm"])(
    "control: %j runs",
    async (command) => {
      const outcome = await runWithRules(runtime, spell(command), rules);
      expect(outcome.kind).toBe("ran");
      await sentinel.assertUntouched();
    },
  );
});
