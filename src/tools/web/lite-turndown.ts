/**
 * turndown's conversion walk (whitespace collapsing, the per-node flags its rules read, joining the rules'
 * output) over a lite tree, with turndown's own rules, options and escape doing the converting. The walk is
 * turndown 7's, restated for speed: its tag tests scan arrays where sets do, it asks every node for
 * textContent and every blank one for eight getElementsByTagName, and on a large page those add up to
 * most of the time left once parsing is fast. The output is the same (test/tools/web/fast-html.test.ts
 * compares it with turndown's on generated pages); turndown's version is pinned in package-lock.json.
 */
import type TurndownService from "turndown";
import { edgeSpace, whitespaceOnly, type LiteElement, type LiteNode, type LiteText } from "./lite-dom.js";

const set = (names: string) => new Set(names.split(" "));
const BLOCK = set(
  "ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL",
);
const VOID = set("AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR");
const MEANINGFUL_WHEN_BLANK = set("A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO");

/** Shared, never changed: turndown's rules only read flanking whitespace. */
const NO_EDGES = Object.freeze({ leading: "", trailing: "" });

interface Rule {
  replacement: (content: string, node: unknown, options: TurndownService.Options) => string;
  append?: (options: TurndownService.Options) => string;
}
interface Rules {
  forNode(node: unknown): Rule;
  forEach(callback: (rule: Rule) => void): void;
}
interface Flags {
  isBlock: boolean;
  isCode: boolean;
  isBlank: boolean;
  flankingWhitespace: { leading: string; trailing: string };
}

export function liteTurndown(service: TurndownService, root: LiteElement): string {
  const options = service.options;
  const rules = service.rules as unknown as Rules;
  const isPre = options.preformattedCode
    ? (node: LiteNode) => node.nodeName === "PRE" || node.nodeName === "CODE"
    : (node: LiteNode) => node.nodeName === "PRE";
  collapse(root, isPre);
  const output = walk(root);
  rules.forEach((rule) => {
    if (typeof rule.append === "function") output.add(rule.append(options));
  });
  const text = output.text();
  let start = 0;
  while (start < text.length && (text[start] === "\t" || text[start] === "\r" || text[start] === "\n")) start++;
  let end = text.length;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return text.slice(start, end);

  function walk(parent: LiteElement): Joined {
    const out = new Joined();
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      const flagged = flag(node, parent);
      if (node.nodeType === 3) out.add(flagged.isCode ? node.data : service.escape(node.data));
      else out.add(convertElement(node, flagged));
    }
    return out;
  }

  function convertElement(node: LiteElement, flags: Flags): string {
    const rule = rules.forNode(node);
    let content = walk(node).text();
    const { leading, trailing } = flags.flankingWhitespace;
    if (leading || trailing) content = content.trim();
    return leading + rule.replacement(content, node, options) + trailing;
  }

  function flag(node: LiteNode, parent: LiteElement): Flags {
    const flags = node as unknown as Flags;
    const name = node.nodeName;
    flags.isBlock = BLOCK.has(name);
    flags.isCode = name === "CODE" || (parent as unknown as Partial<Flags>).isCode === true;
    flags.isBlank = isBlank(node);
    // Only an element's flanking whitespace is ever read (by its own conversion).
    flags.flankingWhitespace = node.nodeType === 1 ? flanking(node, flags) : NO_EDGES;
    return flags;
  }

  function flanking(node: LiteNode, flags: Flags): { leading: string; trailing: string } {
    if (flags.isBlock || (options.preformattedCode && flags.isCode)) return NO_EDGES;
    const edges = edgeWhitespace(node);
    if (edges.leadingAscii && flankedBy(node.previousSibling, / $/)) edges.leading = edges.leadingNonAscii;
    if (edges.trailingAscii && flankedBy(node.nextSibling, /^ /)) edges.trailing = edges.trailingNonAscii;
    return { leading: edges.leading, trailing: edges.trailing };
  }

  function flankedBy(sibling: LiteNode | null, pattern: RegExp): boolean {
    if (!sibling) return false;
    if (sibling.nodeType === 3) return pattern.test(sibling.data);
    if (options.preformattedCode && sibling.nodeName === "CODE") return false;
    // Only the sibling's first or last character matters.
    return !BLOCK.has(sibling.nodeName) && pattern.test(edgeSpace(sibling, pattern.source === " $"));
  }
}

function isBlank(node: LiteNode): boolean {
  if (VOID.has(node.nodeName) || MEANINGFUL_WHEN_BLANK.has(node.nodeName)) return false;
  if (!whitespaceOnly(node)) return false;
  return node.nodeType === 3 || !hasDescendant(node, (name) => VOID.has(name) || MEANINGFUL_WHEN_BLANK.has(name));
}

function hasDescendant(element: LiteElement, test: (name: string) => boolean): boolean {
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1 && (test(child.nodeName) || hasDescendant(child, test))) return true;
  }
  return false;
}

/**
 * Leading and trailing whitespace of the node's text, split into the ASCII part (which collapses) and the
 * rest; whitespace-only text is all leading. Found from the ends of the text, never the whole of it.
 */
function edgeWhitespace(node: LiteNode) {
  const blank = whitespaceOnly(node);
  const leading = blank ? node.textContent : edgeSpace(node, false);
  const trailing = blank ? "" : edgeSpace(node, true);
  const leadingAscii = /^[ \t\r\n]*/.exec(leading)![0];
  const trailingAscii = /[ \t\r\n]*$/.exec(trailing)![0];
  return {
    leading,
    leadingAscii,
    leadingNonAscii: leading.slice(leadingAscii.length),
    trailing,
    trailingNonAscii: trailing.slice(0, trailing.length - trailingAscii.length),
    trailingAscii,
  };
}

/**
 * turndown's joining of converted parts: between what precedes and a new part, the larger of their two
 * newline runs, at most two. The trailing run is kept as a count, so no part is ever cut again.
 */
class Joined {
  #body = "";
  #newlines = 0;

  add(part: string): void {
    let start = 0;
    while (start < part.length && part[start] === "\n") start++;
    const between = Math.max(this.#newlines, start);
    if (start === part.length) {
      this.#newlines = Math.min(between, 2);
      return;
    }
    let end = part.length;
    while (part[end - 1] === "\n") end--;
    this.#body += "\n\n".slice(0, between) + part.slice(start, end);
    this.#newlines = part.length - end;
  }

  text(): string {
    return this.#newlines ? this.#body + "\n".repeat(this.#newlines) : this.#body;
  }
}

/**
 * Whitespace as HTML renders it: runs become one space, dropped at the start of a block and after a
 * space, kept inside pre. Texts left empty and nodes that are neither text nor element are removed.
 */
function collapse(root: LiteElement, isPre: (node: LiteNode) => boolean): void {
  if (!root.firstChild || isPre(root)) return;
  let previousText: LiteText | null = null;
  let keepLeadingSpace = false;
  let previous: LiteNode | null = null;
  let node: LiteNode = advance(previous, root, isPre);
  while (node !== root) {
    if (node.nodeType === 3) {
      // Runs of ASCII whitespace become one space; a text with none longer than one plain space stays as it is.
      let text = /[\r\n\t]| {2}/.test(node.data) ? node.data.replace(/[ \r\n\t]+/g, " ") : node.data;
      if ((!previousText || previousText.data.endsWith(" ")) && !keepLeadingSpace && text[0] === " ") text = text.slice(1);
      if (!text) {
        node = remove(node);
        continue;
      }
      node.data = text;
      previousText = node;
    } else {
      if (BLOCK.has(node.nodeName) || node.nodeName === "BR") {
        if (previousText) previousText.data = previousText.data.replace(/ $/, "");
        previousText = null;
        keepLeadingSpace = false;
      } else if (VOID.has(node.nodeName) || isPre(node)) {
        previousText = null;
        keepLeadingSpace = true;
      } else if (previousText) {
        keepLeadingSpace = false;
      }
    }
    const next = advance(previous, node, isPre);
    previous = node;
    node = next;
  }
  if (previousText) {
    previousText.data = previousText.data.replace(/ $/, "");
    if (!previousText.data) remove(previousText);
  }
}

function remove(node: LiteNode): LiteNode {
  const parent = node.parentNode!;
  const next = node.nextSibling ?? parent;
  parent.removeChild(node);
  return next;
}

/** The next node in document order, not entering pre nor going back into a finished element. */
function advance(previous: LiteNode | null, current: LiteNode, isPre: (node: LiteNode) => boolean): LiteNode {
  if ((previous && previous.parentNode === current) || isPre(current)) return current.nextSibling ?? current.parentNode!;
  return current.firstChild ?? current.nextSibling ?? current.parentNode!;
}
