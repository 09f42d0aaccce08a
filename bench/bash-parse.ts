/**
 * Bash permission derivation: the first load of the tree-sitter wasm, then parse alone and parse + derive
 * (walk, path judging through the node runtime's realpath on a real temp folder) for a one-line command and
 * for a 1,000-line script. Medians of `runs` runs each. The same derivation over the embedded runtime's
 * files (every realpath a message to the file worker) is measured beside it.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { createNodeRuntime } from "../src/runtime/node/index.js";
import { bashParser, deriveBashPermissions, parseBash } from "../src/tools/bash/index.js";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(3));
}

/** A script of the sort an agent writes: cds, pipelines, redirections, heredocs, loops, substitutions. */
function script(lines: number): string {
  const shapes = [
    (i: number) => `cd src/pkg${i % 7} && npm run build -- --out ../../dist/pkg${i % 7} > build.log 2>&1`,
    (i: number) => `cat src/file${i}.ts | grep -n "TODO" | sort | uniq -c >> report.txt`,
    (i: number) => `CI=true git commit -m "step ${i}" --no-verify || echo "nothing to commit"`,
    (i: number) => `for f in src/*.ts; do wc -l "$f"; done`,
    (i: number) => `rm -rf build/tmp${i} && mkdir -p build/tmp${i} && touch build/tmp${i}/.keep`,
    (i: number) => `echo "$(date) line ${i}" | tee -a logs/run.log > /dev/null`,
    (i: number) => `if [ -f out${i}.txt ]; then mv out${i}.txt archive/; else cp template.txt out${i}.txt; fi`,
    (i: number) => `(cd docs && cat intro.md chapter${i}.md) > book${i}.md`,
    (i: number) => `cat <<EOF > notes${i}.md\n# Note ${i}\n\`date\`\nEOF`,
    (i: number) => `chmod 644 src/file${i}.ts; chown "$USER" src/file${i}.ts`,
  ];
  const out: string[] = [];
  // Whole statements only (a heredoc spans lines), so the script may end a line or two past `lines`.
  for (let i = 0; out.length < lines; i++) out.push(...shapes[i % shapes.length]!(i).split("\n"));
  return `${out.join("\n")}\n`;
}

export async function benchBashParse(runs = { oneLine: 200, script: 15 }) {
  const base = await mkdtemp(join(tmpdir(), "wb-bench-bash-"));
  try {
    await mkdir(join(base, "src"), { recursive: true });
    await writeFile(join(base, "src", "file1.ts"), "x\n");
    await symlink(tmpdir(), join(base, "outside-link"));
    const runtime = createNodeRuntime({ root: base });
    const input = { root: base, workdir: base, fs: runtime.fs };

    let start = performance.now();
    await bashParser();
    const firstLoadMs = Number((performance.now() - start).toFixed(3));

    const oneLine = "git status && CI=true npm test > out.log 2>&1";
    const big = script(1000);
    // The generated script must be one the derivation accepts, or the numbers mean nothing.
    (await parseBash(big)).delete();

    const measure = async (text: string, n: number, on = input) => {
      const parse: number[] = [];
      const derive: number[] = [];
      let patterns = 0;
      for (let i = 0; i < n; i++) {
        start = performance.now();
        (await parseBash(text)).delete();
        parse.push(performance.now() - start);
        start = performance.now();
        const result = await deriveBashPermissions(text, on);
        derive.push(performance.now() - start);
        patterns = result.bash.patterns.length;
      }
      return { runs: n, parseMedianMs: median(parse), parseAndDeriveMedianMs: median(derive), bashPatterns: patterns };
    };

    const nodeOneLine = await measure(oneLine, runs.oneLine);
    const nodeScript = await measure(big, runs.script);
    const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory });
    let embeddedResults;
    try {
      const on = { root: embedded.root, workdir: embedded.root, fs: embedded.fs };
      const one = await measure(oneLine, Math.ceil(runs.oneLine / 4), on);
      const whole = await measure(big, Math.ceil(runs.script / 3), on);
      embeddedResults = {
        oneLineParseAndDeriveMedianMs: one.parseAndDeriveMedianMs,
        script1000ParseAndDeriveMedianMs: whole.parseAndDeriveMedianMs,
      };
    } finally {
      await embedded.dispose();
    }

    return {
      benchmark: "bash-parse",
      note: "parseAndDerive includes parsing; derivation judges paths through the node runtime's realpath on a real temp folder",
      firstLoadMs,
      oneLine: { command: oneLine, ...nodeOneLine },
      script1000: { lines: big.split("\n").length - 1, chars: big.length, ...nodeScript },
      embedded: embeddedResults,
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
