import { describe, expect, it } from "vitest";
import { BashParseError, deriveBashPermissions, permissionAsks } from "../../../src/tools/bash/index.js";
import { fakeFs } from "./fake-fs.js";

/**
 * The derivation contract as a table: a command line in; the bash patterns, their "always" patterns and the
 * external_directory patterns out. A command spelled with quotes, escapes or a path as its name also gives
 * its reading as the shell runs it (`\\rm ../x` → `rm ../x`), and one that cannot be judged an
 * `(unresolved) ` bash pattern. The workspace is /ws, with a link `out` → /etc, a link `inner` → /ws/src
 * (inside), a dotfile link `.hidden` → /home/me, and /tmp, /etc/ssh outside.
 */
const fs = fakeFs({
  dirs: ["/ws", "/ws/src", "/ws/src/deep", "/etc", "/etc/ssh", "/tmp", "/home", "/home/me"],
  files: ["/ws/a.txt", "/ws/.env", "/ws/src/a.ts", "/etc/passwd", "/etc/ssh/key", "/tmp/x"],
  links: { "/ws/out": "/etc", "/ws/inner": "/ws/src", "/ws/src/up": "/ws", "/ws/.hidden": "/home/me" },
});

const derive = (command: string, workdir = "/ws") => deriveBashPermissions(command, { root: "/ws", workdir, fs });

type Row = [command: string, patterns: string[], always: string[], external: string[]];

const rows: Row[] = [
  // plain commands and the arity table
  ["ls -la", ["ls -la"], ["ls *"], []],
  ["git log --oneline -5", ["git log --oneline -5"], ["git log *"], []],
  ["npm run dev -- --port 3000", ["npm run dev -- --port 3000"], ["npm run dev *"], []],
  ["python -m venv .venv", ["python -m venv .venv"], ["python -m *"], []],
  ["git status > /tmp/s.txt", ["git status > /tmp/s.txt"], ["git status *"], ["/tmp/*"]],
  // pipelines, lists, subshells, substitutions, heredocs
  ["ls | grep x | wc -l", ["ls", "grep x", "wc -l"], ["ls *", "grep *", "wc *"], []],
  ["mkdir -p build && cd build && make", ["mkdir -p build", "make"], ["mkdir *", "make *"], []],
  ["(cd src && rm a.ts); cat a.txt", ["rm a.ts", "cat a.txt"], ["rm *", "cat *"], []],
  ["(cd /etc); cat passwd", ["cat passwd"], ["cat *"], ["/etc/*"]],
  ["cd /etc; cat passwd", ["cat passwd"], ["cat *"], ["/etc/*"]],
  ["echo $(cat /etc/passwd)", ["echo $(cat /etc/passwd)", "cat /etc/passwd"], ["echo *", "cat *"], ["/etc/*"]],
  ["echo `cat ../x`", ["echo `cat ../x`", "cat ../x"], ["echo *", "cat *"], ["/*"]],
  ["diff <(cat a.txt) <(cat /tmp/x)", ["diff <(cat a.txt) <(cat /tmp/x)", "cat a.txt", "cat /tmp/x"], ["diff *", "cat *"], ["/tmp/*"]],
  ["cat <<EOF > /tmp/out\nhello\nEOF", ["cat <<EOF > /tmp/out\nhello\nEOF"], ["cat *"], ["/tmp/*"]],
  // Redirections (a heredoc too) are opened before the command runs, so their commands come first.
  ["cat <<EOF\n$(rm -rf ../x)\nEOF", ["rm -rf ../x", "cat <<EOF\n$(rm -rf ../x)\nEOF"], ["rm *", "cat *"], ["/*"]],
  ["if [ -f a.txt ]; then rm a.txt; else touch /tmp/flag; fi", ["rm a.txt", "touch /tmp/flag"], ["rm *", "touch *"], ["/tmp/*"]],
  // leading assignments: both readings, each with its own "always"
  ["CI=true git commit -m x", ["CI=true git commit -m x", "git commit -m x"], ["CI=true git commit *", "git commit *"], []],
  ["A=1 B=2 npm test", ["A=1 B=2 npm test", "npm test"], ["A=1 B=2 npm test *", "npm test *"], []],
  [
    "FOO=$(cat /etc/passwd) ls",
    ["FOO=$(cat /etc/passwd) ls", "ls", "cat /etc/passwd"],
    ["FOO=$(cat /etc/passwd) ls *", "ls *", "cat *"],
    ["/etc/*"],
  ],
  // wrappers: the wrapped command is a pattern too
  ["sudo rm -rf /", ["sudo rm -rf /", "rm -rf /"], ["sudo *", "rm *"], ["/*"]],
  ["command cat ../x", ["command cat ../x", "cat ../x"], ["command *", "cat *"], ["/*"]],
  ["env -i PATH=/bin cat /etc/passwd", ["env -i PATH=/bin cat /etc/passwd", "cat /etc/passwd"], ["env *", "cat *"], ["/etc/*"]],
  ["timeout 5 git push", ["timeout 5 git push", "git push"], ["timeout *", "git push *"], []],
  ["\\rm ../x", ["\\rm ../x", "rm ../x"], ["rm *"], ["/*"]],
  // paths: symlinks, .., quoting, trailing and doubled slashes
  ["cat out/passwd", ["cat out/passwd"], ["cat *"], ["/etc/*"]],
  ["cat inner/a.ts src/up/a.txt", ["cat inner/a.ts src/up/a.txt"], ["cat *"], []],
  ["cd out && cat ssh/key", ["cat ssh/key"], ["cat *"], ["/etc/*", "/etc/ssh/*"]],
  ["cd src && rm ../a.txt", ["rm ../a.txt"], ["rm *"], []],
  ["cd src; rm ../a.txt", ["rm ../a.txt"], ["rm *"], ["/*"]],
  ["cd src || exit 1; rm ../a.txt", ["exit 1", "rm ../a.txt"], ["exit *", "rm *"], []],
  ["cat '..'/\"..\"/etc/passwd", ["cat '..'/\"..\"/etc/passwd", "cat ../../etc/passwd"], ["cat *"], ["/etc/*"]],
  ["cat //etc//passwd", ["cat //etc//passwd"], ["cat *"], ["/etc/*"]],
  ["cp a.txt /tmp/", ["cp a.txt /tmp/"], ["cp *"], ["/tmp/*"]],
  ["mv a.txt ../../b", ["mv a.txt ../../b"], ["mv *"], ["/*"]],
  ["chmod 600 /etc/passwd", ["chmod 600 /etc/passwd"], ["chmod *"], ["/etc/*"]],
  ["chown me:me ../x", ["chown me:me ../x"], ["chown *"], ["/*"]],
  ["touch /tmp/new/file.txt", ["touch /tmp/new/file.txt"], ["touch *"], ["/tmp/new/*"]],
  ["rm -- -rf", ["rm -- -rf"], ["rm *"], []],
  ["cp --target-directory=/tmp a.txt", ["cp --target-directory=/tmp a.txt"], ["cp *"], ["/tmp/*"]],
  ["cp -t/tmp a.txt", ["cp -t/tmp a.txt"], ["cp *"], ["/tmp/*"]],
  ["ln -s /etc etc2", ["ln -s /etc etc2"], ["ln *"], ["/etc/*"]],
  ["echo x | tee -a ../log", ["echo x", "tee -a ../log"], ["echo *", "tee *"], ["/*"]],
  ["pushd /tmp && ls", ["pushd /tmp", "ls"], ["pushd *", "ls *"], ["/tmp/*"]],
  // redirections
  ["echo hi > /dev/null 2>&1", ["echo hi > /dev/null 2>&1"], ["echo *"], []],
  ["echo secret > ../leak.txt", ["echo secret > ../leak.txt"], ["echo *"], ["/*"]],
  ["cat < /etc/passwd", ["cat < /etc/passwd"], ["cat *"], ["/etc/*"]],
  ["npm test &> /tmp/log", ["npm test &> /tmp/log"], ["npm test *"], ["/tmp/*"]],
  ["ls 2>> /tmp/err.log", ["ls 2>> /tmp/err.log"], ["ls *"], ["/tmp/*"]],
  ["cat a.txt > out/hosts", ["cat a.txt > out/hosts"], ["cat *"], ["/etc/*"]],
  // globs: expanded in the last component (dotfiles and `..` included), unresolved in a folder component
  ["cat src/*", ["cat src/*"], ["cat *"], []],
  ["cat .*", ["cat .*"], ["cat *"], ["/*", "/home/me/*"]],
  ["cat ou*/passwd", ["cat ou*/passwd"], ["cat *"], ["(unresolved) ou*/passwd"]],
  // what cannot be judged asks, with the text as written
  ["cat ~/x", ["cat ~/x"], ["cat *"], ["(unresolved) ~/x"]],
  ['rm "$X"', ['rm "$X"'], ["rm *"], ['(unresolved) "$X"']],
  ["cat $'\\x2e\\x2e/x'", ["cat $'\\x2e\\x2e/x'", "cat ../x"], ["cat *"], ["/*"]],
  ['sh -c "$CMD"', ['sh -c "$CMD"', '(unresolved) sh -c "$CMD"'], ["sh *"], ['(unresolved) "$CMD"']],
  [
    "bash -c 'cat /etc/passwd'",
    ["bash -c 'cat /etc/passwd'", "bash -c cat /etc/passwd", "cat /etc/passwd"],
    ["bash *", "cat *"],
    ["/etc/*"],
  ],
  ["eval 'cd /etc'; cat passwd", ["eval 'cd /etc'", "eval cd /etc", "cat passwd"], ["eval *", "cat *"], ["/etc/*"]],
  ["cd", [], [], ["(unresolved) cd"]],
  ["cd - && ls", ["ls"], ["ls *"], ["(unresolved) -"]],
  ['cd "$DIR" && rm -rf build', ["rm -rf build"], ["rm *"], ['(unresolved) "$DIR"', "(unresolved) build"]],
  ["ls | xargs rm", ["ls", "xargs rm", "rm"], ["ls *", "xargs *", "rm *"], ["(unresolved) xargs rm"]],
  ["$EDITOR ../notes", ["$EDITOR ../notes", "(unresolved) $EDITOR ../notes"], ["$EDITOR *"], ["(unresolved) $EDITOR", "/*"]],
  ["find . -name '*.o' -delete", ["find . -name '*.o' -delete", "find . -name *.o -delete", "rm .", "rm -rf ."], ["find *"], []],
  ["find .. -name x", ["find .. -name x"], ["find *"], ["/*"]],
  ["trap 'rm -rf ../x' EXIT", ["trap 'rm -rf ../x' EXIT", "trap rm -rf ../x EXIT", "rm -rf ../x"], ["trap *", "rm *"], ["/*"]],
  ["trap - EXIT; trap -p", ["trap - EXIT", "trap -p"], ["trap *"], []],
  [
    "bash <<EOF\ncat ../x\nEOF",
    ["bash <<EOF\ncat ../x\nEOF", "(unresolved) bash <<EOF\ncat ../x\nEOF"],
    ["bash *"],
    ["(unresolved) bash <<EOF\ncat ../x\nEOF"],
  ],
  [
    "su -c 'cat /etc/passwd' root",
    ["su -c 'cat /etc/passwd' root", "su -c cat /etc/passwd root", "cat /etc/passwd"],
    ["su *", "cat *"],
    ["/etc/*"],
  ],
  ["watch -n 5 cat /etc/passwd", ["watch -n 5 cat /etc/passwd", "cat /etc/passwd"], ["watch *", "cat *"], ["/etc/*"]],
  ["/bin/cat /etc/passwd", ["/bin/cat /etc/passwd", "cat /etc/passwd"], ["/bin/cat *", "cat *"], ["/etc/*"]],
  ["command -v cd && cat a.txt", ["command -v cd", "cat a.txt"], ["command *", "cat *"], []],
  ["cd src && exit 0; cat ../a.txt", ["exit 0", "cat ../a.txt"], ["exit *", "cat *"], ["/*"]],
];

describe("deriveBashPermissions: command lines in, patterns out", () => {
  it("has a table of dozens of cases", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it.each(rows)("%j", async (command, patterns, always, external) => {
    const result = await derive(command);
    expect(result.bash.patterns).toEqual(patterns);
    expect(result.bash.always).toEqual(always);
    expect([...result.externalDirectory.patterns].sort()).toEqual([...external].sort());
  });
});

describe("deriveBashPermissions: the external_directory ask", () => {
  it("remembers folders with 'always' but never an unresolved text", async () => {
    const result = await derive("cat /etc/passwd ~/x");
    expect(result.externalDirectory.patterns.sort()).toEqual(["(unresolved) ~/x", "/etc/*"]);
    expect(result.externalDirectory.always).toEqual(["/etc/*"]);
  });

  it("says for each pattern which command and argument led there, and why", async () => {
    const result = await derive("cd src && cat ../../etc/passwd");
    expect(result.externalDirectory.reasons).toEqual([
      {
        pattern: "/etc/*",
        command: "cat ../../etc/passwd",
        argument: "../../etc/passwd",
        path: "/etc/passwd",
        why: "cat reaches outside the workspace",
      },
    ]);
  });

  it("asks for a workdir outside the workspace, and takes relative paths from there", async () => {
    const result = await derive("cat passwd", "/etc");
    expect(result.externalDirectory.patterns).toEqual(["/etc/*"]);
  });

  it("orders the asks as OpenCode does: folders first, then commands, leaving out empty ones", async () => {
    const asks = permissionAsks(await derive("cat /etc/passwd"));
    expect(asks.map((a) => a.permission)).toEqual(["external_directory", "bash"]);
    expect(permissionAsks(await derive("cd src")).map((a) => a.permission)).toEqual([]);
  });
});

describe("deriveBashPermissions: parse failures", () => {
  it.each(['echo "unterminated', "if true; then echo", "cat <<< (", "echo $("])(
    "refuses %j with 'Failed to parse command'",
    async (command) => {
      const failure = await derive(command).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(BashParseError);
      expect((failure as Error).message).toMatch(/^Failed to parse command/);
      expect((failure as Error).message).toMatch(/run it again/);
    },
  );

  it("accepts an empty command line (nothing to ask)", async () => {
    const result = await derive("   ");
    expect(result.bash.patterns).toEqual([]);
    expect(result.externalDirectory.patterns).toEqual([]);
  });
});
