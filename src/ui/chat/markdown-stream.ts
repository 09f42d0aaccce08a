/**
 * Lexing a markdown text that grows at its end (a streamed answer) in time linear in its length.
 * Lexing the whole text again on every delta costs quadratic time: a 40k-character answer in 4-character
 * deltas is 10,000 full lexes. While the text only grows, the top-level blocks before the last one are
 * final, so their tokens are kept and only the text from the start of the last block is lexed again.
 *
 * Where that would not give what a full lex gives, a full lex is done instead:
 * - the new text does not start with the old one (an edit, not a delta);
 * - the final tokens' `raw` put together are not the start of the text, or the lengths of all the
 *   tokens' `raw` do not add up to its length (the lexer changed the source, as it does with \r);
 * - a link reference definition exists: it changes how references in earlier blocks read;
 * - the lexer threw.
 */
import { Lexer, type Token } from "marked";

/** `text` as one paragraph of plain text: what is shown of a text the lexer fails on. */
function plainParagraph(text: string): Token[] {
  return [{ type: "paragraph", raw: text, text, tokens: [{ type: "text", raw: text, text, escaped: true }] }];
}

/**
 * Lexes `text`; `failed` when the lexer threw (marked 18 throws a TypeError on some inputs, such as
 * "1. one\n\t>2) two# Heading\n*e"), in which case the text is one plain paragraph: a model's text
 * must not break the view.
 */
function lexWithLinks(text: string): { tokens: Token[]; hasLinks: boolean; failed: boolean } {
  try {
    const tokens = new Lexer({ gfm: true, breaks: false }).lex(text);
    return { tokens, hasLinks: Object.keys(tokens.links).length > 0, failed: false };
  } catch {
    return { tokens: plainParagraph(text), hasLinks: false, failed: true };
  }
}

/** The top-level tokens of `text`, lexed in full. */
export function lexBlocks(text: string): Token[] {
  return lexWithLinks(text).tokens;
}

function rawLength(tokens: readonly Token[], from: number, to: number): number {
  let length = 0;
  for (let i = from; i < to; i++) length += tokens[i]!.raw.length;
  return length;
}

/**
 * Index of the first token that more text could still change. The last block can change, and so can the
 * block before it: more text on the last block's line can turn it into a continuation of that one (after
 * `1. a\n\n`, `2` is a paragraph but `2.` is the list's second item; after `- a\n`, `#` is a heading but
 * `#x` continues the item). Blocks with no blank line between them can change together (marked reads
 * `p\n2) x\n-` as a paragraph and two lists, and `p\n2) x\n-#` as one paragraph), so the re-lexed part
 * also takes in every block that touches the block before the last.
 */
function firstOpenToken(tokens: readonly Token[]): number {
  const blockBefore = (index: number) => {
    let i = index - 1;
    while (i >= 0 && tokens[i]!.type === "space") i--;
    return i;
  };
  const last = blockBefore(tokens.length);
  if (last <= 0) return 0;
  let open = blockBefore(last);
  if (open < 0) return 0;
  while (open > 0 && tokens[open - 1]!.type !== "space") open--;
  return open;
}

/** Lexes successive versions of one text, reusing the final blocks of the previous version. */
export class StreamingLexer {
  private text = "";
  private tokens: Token[] = [];
  /** Tokens before `stableCount` are final while the text only grows; `stableEnd` is where they end. */
  private stableCount = 0;
  private stableEnd = 0;
  /** False when the last full lex showed that reuse would not match a full lex (see the file's comment). */
  private reusable = false;
  /** How many lexes were full ones: for tests and the bench. */
  fullLexes = 0;

  lex(text: string): Token[] {
    if (text === this.text && this.fullLexes > 0) return this.tokens;
    if (!this.reusable || text.length < this.text.length || !text.startsWith(this.text)) return this.full(text);
    const tail = lexWithLinks(text.slice(this.stableEnd));
    if (tail.failed || tail.hasLinks || rawLength(tail.tokens, 0, tail.tokens.length) !== text.length - this.stableEnd)
      return this.full(text);
    const tokens = this.tokens.slice(0, this.stableCount);
    for (const token of tail.tokens) tokens.push(token);
    this.reusable = this.remember(text, tokens, this.stableCount, this.stableEnd);
    return tokens;
  }

  private full(text: string): Token[] {
    this.fullLexes++;
    const { tokens, hasLinks, failed } = lexWithLinks(text);
    const whole = !failed && !hasLinks && rawLength(tokens, 0, tokens.length) === text.length;
    this.reusable = this.remember(text, tokens, 0, 0) && whole;
    return tokens;
  }

  /**
   * `keptCount` tokens, ending at `keptEnd`, are known to be final in `tokens`. Returns whether the final
   * tokens' `raw` are exactly the start of `text`, so that the text after them can be lexed alone. (The
   * open end need not be: marked writes a list ending in "- " as "-\n", of the same length.)
   */
  private remember(text: string, tokens: Token[], keptCount: number, keptEnd: number): boolean {
    const open = firstOpenToken(tokens);
    let exact = true;
    let end = keptEnd;
    if (open < keptCount) end = rawLength(tokens, 0, open);
    for (let i = keptCount; i < open; i++) {
      const raw = tokens[i]!.raw;
      exact &&= text.startsWith(raw, end);
      end += raw.length;
    }
    this.stableEnd = end;
    this.stableCount = open;
    this.text = text;
    this.tokens = tokens;
    return exact;
  }
}
