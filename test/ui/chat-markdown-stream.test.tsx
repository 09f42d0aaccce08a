// @vitest-environment happy-dom
/** Streaming markdown: lexing only the open end of a growing text must give what a full lex gives. */
import { cleanup, render } from "@solidjs/testing-library";
import fc from "fast-check";
import { createSignal } from "solid-js";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../src/ui/chat/Markdown.js";
import { lexBlocks, StreamingLexer } from "../../src/ui/chat/markdown-stream.js";

afterEach(cleanup);

// Pieces of the markdown a model writes, including ones that change what came before when more follows
// (a fence opened then closed, a setext underline, a table's delimiter row, a lazy continuation line).
const PIECES = [
  "# Heading\n",
  "## Sub",
  "#",
  "x",
  " ",
  "word ",
  "more text",
  "\n",
  "\n\n",
  "para with `code` and **bold**",
  "- item\n",
  "- [ ] task\n",
  "1. one\n",
  "2) two",
  "  nested\n",
  "    indented code\n",
  "```ts\n",
  "```\n",
  "~~~",
  "let a = 1;\n",
  "| a | b |\n",
  "|---|:-:|\n",
  "| 1 | 2 |\n",
  "> quote\n",
  ">",
  "---\n",
  "===\n",
  "***",
  "*em*",
  "_",
  "`",
  "<div>\n",
  "</div>\n",
  "[link](https://example.com)",
  "![img](https://example.com/p.png)",
  "\t",
  "&amp; ",
  "\\*",
];
// Rarer pieces that make the lexer fall back to full lexes: a reference definition, and a carriage return.
const RARE = ["[r]: https://example.com/r\n", "[see][r] ", "\r\n"];

const piece = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.constantFrom(...RARE) });
const text = fc.array(piece, { minLength: 1, maxLength: 40 }).map((pieces) => pieces.join(""));
/** A text and the lengths of its successive deltas (cycled until the text is complete). */
const stream = fc.tuple(text, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 12 }));

function prefixes(full: string, deltas: readonly number[]): string[] {
  const out: string[] = [];
  for (let end = 0, i = 0; end < full.length; i++) {
    end = Math.min(full.length, end + deltas[i % deltas.length]!);
    out.push(full.slice(0, end));
  }
  return out;
}

const tokensOf = (tokens: unknown) => JSON.stringify(tokens);

describe("contract: incremental lexing equals a full lex", () => {
  it("for every prefix of growing markdown-ish texts", () => {
    fc.assert(
      fc.property(stream, ([full, deltas]) => {
        const lexer = new StreamingLexer();
        for (const prefix of prefixes(full, deltas)) expect(tokensOf(lexer.lex(prefix))).toBe(tokensOf(lexBlocks(prefix)));
      }),
      { numRuns: 300 },
    );
  });

  it("where more text changes blocks before the last one", () => {
    // Found by the property above: a list item across a blank line, a lazy continuation, and a paragraph
    // that marked splits into lists until one more character joins them again.
    for (const full of [
      "1. a\n\n\n2.",
      "- a\n#x",
      "let a = 1;\n2) two# Heading\n-# Heading\n",
      "1. one\n\t>2) two# Heading\n*em*# Heading\n",
    ]) {
      const lexer = new StreamingLexer();
      for (let end = 1; end <= full.length; end++)
        expect(tokensOf(lexer.lex(full.slice(0, end)))).toBe(tokensOf(lexBlocks(full.slice(0, end))));
    }
  });

  it("when the text is replaced by one that does not extend it", () => {
    fc.assert(
      fc.property(text, text, (first, second) => {
        const lexer = new StreamingLexer();
        lexer.lex(first);
        expect(tokensOf(lexer.lex(second))).toBe(tokensOf(lexBlocks(second)));
      }),
      { numRuns: 100 },
    );
  });

  it("lexes in full only once for a long answer without definitions, and on every delta once one appears", () => {
    const answer = "# Plan\n\nRead `a.ts`, then:\n\n- edit it\n- test it\n\n```ts\nconst a = 1;\n```\n\n".repeat(20);
    const lexer = new StreamingLexer();
    for (let end = 4; end <= answer.length; end += 4) lexer.lex(answer.slice(0, end));
    expect(lexer.fullLexes).toBe(1);
    const withDef = `${answer}[r]: https://example.com\n`;
    lexer.lex(withDef);
    lexer.lex(`${withDef}[see][r]`);
    expect(lexer.fullLexes).toBe(3);
  });
});

describe("contract: a text the lexer fails on still shows", () => {
  // marked 18.2 throws a TypeError while lexing this text (a tab-indented quote marker in a list item).
  const breaking = "1. one\n\t>2) two# Heading\n*e";

  it("shows it as plain text, whole or streamed, instead of breaking the view", () => {
    const whole = render(() => <Markdown text={breaking} />).container;
    expect(whole.querySelector("[data-testid=markdown]")?.textContent).toBe(breaking);
    const [text, setText] = createSignal("");
    const streamed = render(() => <Markdown text={text()} />).container;
    for (let end = 1; end <= breaking.length; end++) setText(breaking.slice(0, end));
    expect(streamed.innerHTML).toBe(whole.innerHTML);
    setText(`${breaking}m*\n\nafter`);
    expect(streamed.querySelector("[data-testid=markdown]")?.textContent).toContain("after");
  });
});

describe("contract: the streamed view is the view of the whole text", () => {
  it("renders the same DOM after each delta as a fresh render of that text", () => {
    fc.assert(
      fc.property(stream, ([full, deltas]) => {
        const [current, setCurrent] = createSignal("");
        const streamed = render(() => <Markdown text={current()} />);
        try {
          for (const prefix of prefixes(full, deltas)) {
            setCurrent(prefix);
            const fresh = render(() => <Markdown text={prefix} />);
            expect(streamed.container.innerHTML).toBe(fresh.container.innerHTML);
            fresh.unmount();
          }
        } finally {
          streamed.unmount();
        }
      }),
      // A definition arriving after a block that uses it changes that block while its source stays the same.
      { numRuns: 40, examples: [[["## Sub[r]: https://example.com/r\n[r]: https://example.com/r\n", [1]]]] },
    );
  });

  it("while streaming, draws at most once per frame, and draws the final text as soon as streaming ends", async () => {
    const [text, setText] = createSignal("Hello");
    const [streaming, setStreaming] = createSignal(true);
    const { container } = render(() => <Markdown text={text()} streaming={streaming()} />);
    expect(container.textContent).toBe("Hello");
    for (const more of [",", " wor", "ld", "!"]) setText(text() + more);
    // The deltas of one frame wait for that frame...
    expect(container.textContent).toBe("Hello");
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    // ...and are drawn together in it.
    expect(container.textContent).toBe("Hello, world!");
    setText("Hello, world! Done **now**");
    setStreaming(false);
    expect(container.textContent).toBe("Hello, world! Done now");
    expect(container.querySelector("strong")?.textContent).toBe("now");
  });
});
