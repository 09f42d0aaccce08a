/**
 * The page's cost of lexing a long streamed answer: 40,000 characters of typical assistant markdown
 * (headings, paragraphs with inline code and links, lists, code fences, tables) arriving in 4-character
 * deltas, lexed on every delta, once by the incremental lexer the chat uses (only the open end of the
 * text again) and once by a full re-lex of the whole text each time, as the chat did before. Both in the
 * same run; the final tokens of both are checked to be the same.
 */
import { lexBlocks, StreamingLexer } from "../src/ui/chat/markdown-stream.js";

const LENGTH = 40_000;
const DELTA = 4;

const SECTION = [
  "## Step {n}: read the file\n\n",
  "First I read `src/app/{n}.ts` to see how the [config loader](https://example.com/docs/{n}) works, and **which** options it takes.\n",
  "It turns out the loader is called from two places:\n\n",
  "- `main.ts`, at startup\n- `reload.ts`, when the file changes\n  - which debounces for 200 ms\n\n",
  '```ts\nexport function load(path: string): Config {\n  const text = readFileSync(path, "utf8");\n  return parse(text);\n}\n```\n\n',
  "| option | default | meaning |\n|---|:-:|---|\n| `strict` | false | reject unknown keys |\n| `watch` | true | reload on change |\n\n",
  "> Note: the *watch* option needs a runtime that can watch files.\n\n",
].join("");

function answer(): string {
  let text = "";
  for (let n = 1; text.length < LENGTH; n++) text += SECTION.replaceAll("{n}", String(n));
  return text.slice(0, LENGTH);
}

function stream(text: string, lex: (prefix: string) => unknown): { totalMs: number; maxDeltaMs: number; last: unknown } {
  let maxDeltaMs = 0;
  let last: unknown;
  const start = performance.now();
  for (let end = DELTA; end < text.length + DELTA; end += DELTA) {
    const before = performance.now();
    last = lex(text.slice(0, Math.min(end, text.length)));
    maxDeltaMs = Math.max(maxDeltaMs, performance.now() - before);
  }
  return { totalMs: performance.now() - start, maxDeltaMs, last };
}

const round = (n: number) => Number(n.toFixed(1));

export async function benchMarkdownStream() {
  const text = answer();
  const lexer = new StreamingLexer();
  const incremental = stream(text, (prefix) => lexer.lex(prefix));
  const full = stream(text, lexBlocks);
  const same = JSON.stringify(incremental.last) === JSON.stringify(full.last);
  return {
    benchmark: "markdown-stream",
    note: "lexing only (what the chat's Markdown view does per delta), not DOM work; both measured in this run",
    chars: text.length,
    deltaChars: DELTA,
    deltas: Math.ceil(text.length / DELTA),
    incremental: { totalMs: round(incremental.totalMs), maxDeltaMs: round(incremental.maxDeltaMs), fullLexes: lexer.fullLexes },
    fullRelex: { totalMs: round(full.totalMs), maxDeltaMs: round(full.maxDeltaMs) },
    speedup: round(full.totalMs / incremental.totalMs),
    sameFinalTokens: same,
  };
}
