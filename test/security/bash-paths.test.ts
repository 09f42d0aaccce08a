import { relative } from "pathe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime/types.js";
import { bashBackends } from "../tools/bash/harness.js";
import { runWithRules } from "./bash-permissions.js";
import { plantSentinel, SENTINEL_TEXT, type Sentinel } from "./sentinel.js";

/**
 * Issue 15, items 4 and 5: commands the bash tool has no table for, and line continuations, must not read or
 * write outside the workspace without an external_directory ask. Each case is the attack as a model would
 * send it, run through the real bash tool under OpenCode's default rules (everything allowed, leaving the
 * workspace asked); the ask is refused, and the sentinel beside the workspace must be as it was. `OUT` is
 * the sentinel's folder as a relative path from the workspace, `ABS` the same folder absolute; `note` is a
 * link in the workspace to the sentinel file and `lnk` a link to its folder.
 *
 * On node the same attacks are also run with everything allowed, to show they are real: the read ones print
 * the sentinel (or list its folder), the write ones change that folder. A case that did nothing even then would prove nothing.
 */
type Effect = "reads" | "lists" | "writes";

const attacks: [command: string, effect: Effect][] = [
  ["head OUT/sentinel.txt", "reads"],
  ["tail -n 5 OUT/sentinel.txt", "reads"],
  ["sed -n p OUT/sentinel.txt", "reads"],
  ["grep -r sentinel OUT", "reads"],
  ["base64 -d <(base64 OUT/sentinel.txt)", "reads"],
  ["dd if=OUT/sentinel.txt status=none", "reads"],
  ["perl -ne print OUT/sentinel.txt", "reads"],
  ["python3 -c \"print(open('OUT/sentinel.txt').read())\"", "reads"],
  ["node -e \"process.stdout.write(require('fs').readFileSync('OUT/sentinel.txt'))\"", "reads"],
  ["awk '{print}' OUT/sentinel.txt", "reads"],
  ["awk 'BEGIN{system(\"cat OUT/sentinel.txt\")}'", "reads"],
  ["sed -n '1r OUT/sentinel.txt' a.txt", "reads"],
  ["wc -c OUT/sentinel.txt && cut -c1-200 OUT/sentinel.txt", "reads"],
  ["head ABS/sentinel.txt", "reads"],
  ["head lnk/sentinel.txt", "reads"],
  ["head note", "reads"],
  ["[ -f OUT/sentinel.txt ] && cat a.txt OUT/sentinel.txt", "reads"],
  ["python3 - <<'EOF'\nprint(open('OUT/sentinel.txt').read())\nEOF", "reads"],
  ["ls \\\nOUT", "lists"],
  ["ls -la \\\n  ABS", "lists"],
  ["he\\\nad OUT/sentinel.txt", "reads"],
  ["head \\\n\tOUT/sentinel.txt", "reads"],
  ["dd if=a.txt of=OUT/new status=none", "writes"],
  ["install a.txt OUT/new", "writes"],
  ["sed -i s/sentinel/changed/ OUT/sentinel.txt", "writes"],
  ["sed 's/inside/x/w OUT/new' a.txt", "writes"],
  ["sort -o OUT/new a.txt", "writes"],
  ["sort -oOUT/new a.txt", "writes"],
  ["sort --output=OUT/new a.txt", "writes"],
  ["tar -cf OUT/new.tar a.txt", "writes"],
  ["git -C OUT init -q", "writes"],
  ["awk '{print > \"OUT/new\"}' a.txt", "writes"],
  ["perl -e 'open(F, \">OUT/new\"); print F 1'", "writes"],
  ["rm -rf \\\nOUT", "writes"],
  ["cp a.txt \\\nOUT/new", "writes"],
  ["touch x && mv x \\\n  OUT/new", "writes"],
];

const defaults = { "*": "allow", external_directory: { "*": "ask" } };
const everything = { "*": { "*": "allow", "(unresolved) *": "allow" } };

const backends = bashBackends.filter((b) => b.name === "node" || b.name === "embedded");

describe.each(backends)("bash: no way out through any command or a continuation ($name)", (backend) => {
  let runtime: Runtime;
  let cleanup: () => Promise<void>;
  let sentinel: Sentinel;

  beforeEach(async () => {
    ({ runtime, cleanup } = await backend.create());
    sentinel = await plantSentinel(runtime);
    await runtime.fs.writeFile(`${runtime.root}/a.txt`, "inside\n");
    await runtime.fs.symlink(sentinel.dir, `${runtime.root}/lnk`);
    await runtime.fs.symlink(sentinel.file, `${runtime.root}/note`);
  });
  afterEach(async () => {
    await sentinel.dispose();
    await cleanup();
  });

  const spell = (command: string) => command.replaceAll("ABS", sentinel.dir).replaceAll("OUT", relative(runtime.root, sentinel.dir));

  it("has the attacks of the issue and more", () => {
    expect(attacks.length).toBeGreaterThanOrEqual(30);
  });

  it.each(attacks)("%j asks external_directory first (%s)", async (command) => {
    if (backend.name === "embedded" && command.startsWith("node ")) {
      // The embedded node's program runs in a sandbox holding only the workspace: nothing to ask, nothing reached.
      const outcome = await runWithRules(runtime, spell(command), defaults);
      expect(outcome.kind).toBe("ran");
      if (outcome.kind === "ran") {
        expect(outcome.run.result.output).not.toContain(SENTINEL_TEXT.trim());
        expect(outcome.run.result.output).toContain("ENOENT");
      }
      await sentinel.assertUntouched();
      return;
    }
    const outcome = await runWithRules(runtime, spell(command), defaults);
    expect(outcome.kind).toBe("asked");
    if (outcome.kind === "asked") expect(outcome.asked.permission).toBe("external_directory");
    await sentinel.assertUntouched();
  });

  it.each([
    "cat a.txt && head -n 1 a.txt",
    "grep -r inside .",
    "sed -n p a.txt",
    "awk '{print $1}' a.txt",
    "ls \\\n.",
    "echo ../../etc",
    "python3 --version > /dev/null || true",
  ])("control: %j stays inside and runs without asking", async (command) => {
    const outcome = await runWithRules(runtime, command, defaults);
    expect(outcome.kind).toBe("ran");
    await sentinel.assertUntouched();
  });

  if (backend.name === "node") {
    it.each(attacks)("the attack is real: %j %s the sentinel when everything is allowed", async (command, effect) => {
      const outcome = await runWithRules(runtime, spell(command), everything);
      expect(outcome.kind).toBe("ran");
      if (outcome.kind !== "ran") return;
      if (effect === "reads") expect(outcome.run.result.output).toContain(SENTINEL_TEXT.trim());
      else if (effect === "lists") expect(outcome.run.result.output).toContain("sentinel.txt");
      else await expect(sentinel.assertUntouched()).rejects.toThrow();
    });
  }
});
