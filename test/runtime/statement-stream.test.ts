/**
 * Differential: the embedded shell's per-statement streaming (src/runtime/embedded/statement-stream.ts) must
 * not change what a command line does. Each line runs twice in just-bash over the same kind of file system,
 * once as is and once with the streaming plugin and devices; stdout (streamed + final), stderr (streamed +
 * final), the exit status, the final cwd and the variables must be identical, in order.
 */
import { Bash, InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { statementStreamPlugin } from "../../src/runtime/embedded/statement-stream.js";
import { withShellDevices } from "../../src/runtime/embedded/shell-devices.js";

const lines = [
  "echo a && exit 3; echo b",
  "exec >/tmp/out.txt; echo hidden; cat /tmp/out.txt >&2",
  "echo bg & echo fg",
  "echo ok; if then fi; echo after",
  "x=$(echo sub); echo $x; echo -n partial",
  "set -e; echo one; false; echo never",
  "f() { echo in f; return 4; }; f; echo $?",
  "cd /tmp; pwd; export B=2; C=3",
  "echo $LINENO\necho $LINENO",
  "set -x; echo traced; echo t2 2>/dev/null; x=1",
  "set -v; echo verbose",
  "echo before; set -v; echo after",
  'shopt -s expand_aliases; alias hi="echo alias"; hi',
  "for i in 1 2 3; do echo $i; done | tail -1",
  "while true; do break; done; echo out",
  "break; echo after",
  "read x; echo got $x",
  "echo a >&2; echo b",
  "false; echo $?; ! true; echo $?",
  "echo ${PIPESTATUS[@]}; false | true; echo ${PIPESTATUS[@]}",
  "set -o pipefail; false | true; echo $?",
  "local x=1",
  "return 3; echo after",
  "exit",
  "set -u; echo $NOPE; echo after",
  "set -u; x=$NOPE; echo after >&2",
  "echo $((1/0)); echo after",
  "echo $((1/0)) >&2; echo f >&2",
  "x=$((1/0)); echo after $? >&2",
  "echo ${x:?missing}; echo after",
  "x=${y:?nope}; echo after >&2",
  "x=$(echo e >&2; echo v); echo $x; echo f >&2",
  "x=${y:-$(echo sub >&2)}; echo after >&2",
  "echo $(echo e >&2) >&2; echo f >&2",
  "x=$(echo e >&2) echo cmd; echo f >&2",
  "> /tmp/created; ls /tmp/created; > /nonexist/x; echo after >&2",
  "echo hi > /home/f; cat /home/f; rm /home/f",
  "exec 3>/tmp/x; echo three >&3; exec 3>&-; cat /tmp/x",
  "unset A; echo ${A-unset}",
  "echo $((1+2)); [[ a == a ]] && echo yes",
  'eval "echo evaled; y=9"; echo $y',
  "bash -c 'echo nested; echo nested-err >&2'; x=$(bash -c 'echo captured'); echo $x",
  "cat nofile; echo rc=$?",
  "nosuchcmd; echo rc=$?",
  "(cd /tmp; echo sub $PWD); echo $PWD",
  "{ echo g1; echo g2 >&2; } > /tmp/g; cat /tmp/g",
  "{ echo g1; echo g2 >&2; } 2>&1 | cat -n",
  "echo x 2>&1 >/dev/null; echo y >/dev/null 2>&1",
  "ls nofile 2>&1 | head -1",
  "ls nofile |& cat -n; echo z",
  "echo a 1>&2 2>/dev/null; echo b 2>/dev/null 1>&2",
  "echo to-err >/dev/stderr; echo to-out 2>/dev/stdout",
  "x=1 y=2; echo $x$y; z=3 echo $z",
  'printf "%s\\n" é ü 日本; echo é >&2',
  "if true; then echo t; fi >/tmp/if; cat /tmp/if; case a in a) echo A;; esac",
  "for i in 1 2; do echo $i >&2; done 2>&1",
  "for i in $(echo e >&2); do :; done; echo f >&2",
  "while read l; do echo L$l; done <<EOF\n1\n2\nEOF\necho end",
  "cat <<EOF >&2\nhd\nEOF\necho after",
  "diff <(echo a) <(echo b); echo rc=$?",
  "echo a > /tmp/noclob; set -C; echo b > /tmp/noclob; echo rc=$?",
  "echo $0 $#; set -- a b; echo $#; shift; echo $1",
  "f() { echo f; }; f >/dev/null; f | cat; f 2>&1",
  "$CMD; echo dyn",
  "yes | head -3; seq 3 | wc -l",
  "pwd; cd ..; pwd; cd -; pwd",
  "echo $(echo e >&2) 2>/dev/null; echo f >&2",
  "x=$(echo e >&2) 2>/dev/null; echo f >&2",
  "echo $(echo $(echo inner >&2) >&2); echo f >&2",
  "echo `echo legacy >&2`; echo f >&2",
  "cat <<EOF\n$(echo hd >&2)\nEOF\necho f >&2",
  "echo hi > $(echo /tmp/t; echo e >&2); cat /tmp/t; echo f >&2",
  "x=$(exit 3); echo $?",
  "x=$(set -e; false; echo no); echo [$x]",
  "echo $(cd /tmp; pwd); pwd",
  "x=$(echo a | tr a b 2>&1); echo $x",
  "x=$(ls nofile 2>&1); echo [$x]",
  "x=$(ls nofile |& cat); echo [$x]",
  "x=$(f() { echo fe >&2; }; f); echo f >&2",
  "echo $(echo $((1/0))); echo f >&2",
  "y=$(echo e >&2; exit 4); echo $? >&2",
  "for f in $(echo a b); do echo $f >&2; done; x=$(for i in 1; do echo L >&2; done); echo f >&2",
  "x=$(exec 2>/dev/null; echo gone >&2); echo f >&2",
  "set -u; x=$(echo $NOPE); echo after >&2",
  "shopt -s failglob; echo *.nomatch; echo f >&2",
  "shopt -s failglob; x=$(echo *.nomatch); echo f >&2",
  "x=$(echo ${NOPE:?gone}); echo f >&2",
  "x=$(set -u; echo $NOPE); echo f >&2",
  "set -euo pipefail; v=$(echo $HOME); echo $v; x=$(echo $NOPE); echo f >&2",
  "x=$(set -v; echo v); echo f >&2",
  "x=$(ls *.none 2>&1); echo [$x]; y=$(echo $A); echo $y",
  "shopt -s nullglob; echo none: *.none; x=$(echo *.none); echo [$x]",
  // Compound commands stream command by command inside (issue 17, item 3).
  "for i in 1 2 3; do echo $i; echo e$i >&2; done; echo after",
  "for ((i=0; i<3; i++)); do echo $i; done",
  "for ((i=0; i<3; i=i/0)); do echo $i; done; echo after",
  "while read l; do echo L$l; break; done <<EOF\n1\n2\nEOF\necho end",
  "i=0; while [ $i -lt 3 ]; do i=$((i+1)); if [ $i = 2 ]; then continue; fi; echo $i; done",
  "if echo cond; then echo yes; else echo no >&2; fi; if false; then :; elif echo e >&2; then echo elif; fi",
  "case x in x) echo X; echo Y >&2;; y) echo no;; esac",
  "{ echo g1; echo g2 >&2; }; (echo s1; exit 3); echo $?",
  "seq 3 | while read n; do echo n$n; done",
  "f() { for i in 1 2; do echo $i; return 5; done; }; f; echo $?",
  "for i in 1 2; do set -u; echo $NOPE; done; echo f >&2",
  "for i in $(echo e >&2; echo 1 2); do echo $i >&2; done",
  "for i in 1; do exit 4; done; echo no",
  "until false; do echo u; break; done",
  "for i in 1 2 3; do echo $i; done > /tmp/loop; cat /tmp/loop",
  "while true; do echo x; break 1; done 2>&1 | cat",
  "for i in 1 2; do for j in a b; do echo $i$j; [ $j = a ] && continue 2; done; done",
  "for i in 1 2; do echo $((i/0)); done; echo after",
  "for i in 1 2; do nosuch$i; done; echo rc=$?",
  "set -e; for i in 1 2; do echo $i; false; echo never; done; echo never2",
  "for i in 1 2; do x=$(echo s$i >&2; echo v$i); echo $x; done",
  "if true; then echo a; fi < /dev/null",
  "while false; do :; done; echo $?",
  "for i in 1 2; do x=$((i/0)); echo $i; done; echo after",
  "i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done",
  "set -u; for ((i=0; i<2; i+=n)); do echo $i; done; echo f >&2",
  "for i in 1 2; do echo $i; y=$((1/0)) echo cmd; done; echo after",
  "[ 1 = 1 ] && echo one; [ 2 -gt; echo rc=$?; [ -f /nope ] || echo none",
];

async function run(line: string, stream: boolean) {
  const streamed = { stdout: "", stderr: "" };
  const base = new InMemoryFs();
  const fs = stream ? withShellDevices(base, (name, text) => (streamed[name] += text)) : base;
  const bash = new Bash({ fs, cwd: "/home", env: { A: "1" } });
  await bash.fs.mkdir("/home", { recursive: true });
  await bash.fs.mkdir("/tmp", { recursive: true });
  let armed = stream;
  if (stream) {
    bash.registerTransformPlugin(
      statementStreamPlugin(() => {
        const now = armed;
        armed = false;
        return now;
      }),
    );
  }
  const result = await bash.exec(line, { cwd: "/home" });
  const { PWD, ...env } = result.env;
  return {
    stdout: streamed.stdout + result.stdout,
    stderr: streamed.stderr + result.stderr,
    exitCode: result.exitCode,
    cwd: PWD,
    env,
    streamed,
  };
}

describe("embedded per-statement streaming changes nothing", () => {
  it.each(lines)("%s", async (line) => {
    const plain = await run(line, false);
    const streaming = await run(line, true);
    const { streamed: _streamed, ...withStreaming } = streaming;
    const { streamed: _none, ...without } = plain;
    expect(withStreaming).toEqual(without);
  });

  it("really streams: the statements before a sleep are out before it, the rest after", async () => {
    const { streamed } = await run("echo one; echo two >&2; x=1; echo $x", true);
    expect(streamed).toEqual({ stdout: "one\n1\n", stderr: "two\n" });
  });

  it("streams inside a loop, an if and a group: each inner command's output as it ends", async () => {
    const pieces: string[] = [];
    const base = new InMemoryFs();
    const bash = new Bash({ fs: withShellDevices(base, (name, text) => pieces.push(`${name}:${text}`)), cwd: "/" });
    let armed = true;
    bash.registerTransformPlugin(statementStreamPlugin(() => [armed, (armed = false)][0]!));
    await bash.exec(
      "for i in 1 2; do echo $i; echo e$i >&2; done; if true; then echo t; fi; { echo g; }; n=0; while [ $n -lt 2 ]; do n=$((n+1)); echo w$n; done",
      { cwd: "/" },
    );
    // One piece per inner command, in the order they ran (a whole loop at its end would be one "1\n2\n").
    expect(pieces).toEqual([
      "stdout:1\n",
      "stderr:e1\n",
      "stdout:2\n",
      "stderr:e2\n",
      "stdout:t\n",
      "stdout:g\n",
      "stdout:w1\n",
      "stdout:w2\n",
    ]);
  });

  it("does not enter a function's body or a compound whose output goes elsewhere", async () => {
    const pieces: string[] = [];
    const bash = new Bash({ fs: withShellDevices(new InMemoryFs(), (name, text) => pieces.push(`${name}:${text}`)), cwd: "/" });
    let armed = true;
    bash.registerTransformPlugin(statementStreamPlugin(() => [armed, (armed = false)][0]!));
    await bash.exec("f() { echo a; echo b; }; f; for i in 1 2; do echo $i; done | cat", { cwd: "/" });
    expect(pieces).toEqual(["stdout:a\nb\n", "stdout:1\n2\n"]);
  });

  it("stops streaming where it could reorder output, and delivers the rest at the end in order", async () => {
    const result = await run("echo one; echo $((1/0)) >&2; echo two", true);
    expect(result.streamed).toEqual({ stdout: "one\n", stderr: "" });
    expect(result.stdout).toBe("one\ntwo\n");
    expect(result.stderr).toMatch(/division by 0/);
  });

  it("streams past a $( ): its stderr goes to the stream, its stdout stays the value", async () => {
    const result = await run("x=$(echo value; echo note >&2); echo got $x", true);
    expect(result.streamed).toEqual({ stdout: "got value\n", stderr: "note\n" });
  });
});
