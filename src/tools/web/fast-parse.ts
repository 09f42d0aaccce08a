/**
 * A quick HTML parser for the common, tidy part of the web, giving the tree an HTML5 parser builds for
 * turndown's input (`<x-turndown>` + page, so quirks mode and the page's html/head/body tags ignored).
 * It follows the standard's tree-building rules only where they are simple: implied ends of p, li, dd, dt
 * and headings, implied tbody and tr, cells closed by the next cell or row, pre's leading newline. On
 * anything it does not model exactly (foster parenting, misnested formatting, svg/math, select, unknown
 * entities, ...) it returns undefined and the caller uses a full parser: a page is either parsed exactly
 * as the standard parser would, or not at all. domino, the full parser on Node, is pure JS and takes most
 * of a large page's conversion time, hence this one.
 */
import { LiteElement, LiteText } from "./lite-dom.js";

class Unsupported extends Error {}
const bail = (): never => {
  throw new Unsupported();
};

const set = (names: string) => new Set(names.split(" "));
const VOID = set("area base basefont bgsound br col embed hr img input keygen link meta param source track wbr");
const FORMATTING = set("a b big code em font i nobr s small strike strong tt u");
const IMPLIED_END = set("dd dt li optgroup option p rb rp rt rtc");
const CLOSES_P = set(
  "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main menu nav ol p search section summary ul pre listing form hr h1 h2 h3 h4 h5 h6",
);
const HEADINGS = set("h1 h2 h3 h4 h5 h6");
const SPECIAL = set(
  "address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp",
);
/** Start tags this parser leaves to the full parser. */
const UNSUPPORTED = set(
  "applet marquee object nobr image textarea xmp noembed noframes plaintext template frameset frame select option optgroup rb rp rt rtc math svg caption colgroup col button x-turndown",
);
const TABLE_SECTIONS = set("tbody thead tfoot");
const TABLE_CONTEXT = set("table tbody thead tfoot tr");
const CELL_BREAKERS = set("caption col colgroup tbody td tfoot th thead tr");
const RAW_TEXT = set("script style iframe");
const LI = set("li");
const DD_DT = set("dd dt");
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  mdash: "\u2014",
  ndash: "\u2013",
  hellip: "\u2026",
  laquo: "\u00ab",
  raquo: "\u00bb",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  bull: "\u2022",
  middot: "\u00b7",
  times: "\u00d7",
  divide: "\u00f7",
  deg: "\u00b0",
  euro: "\u20ac",
  pound: "\u00a3",
  yen: "\u00a5",
  cent: "\u00a2",
  sect: "\u00a7",
  para: "\u00b6",
  shy: "\u00ad",
};
/** Entities the standard also recognises without a semicolon: any of these prefixes after & needs the full parser. */
const LEGACY =
  /^&(?:AElig|AMP|Aacute|Acirc|Agrave|Aring|Atilde|Auml|COPY|Ccedil|ETH|Eacute|Ecirc|Egrave|Euml|GT|Iacute|Icirc|Igrave|Iuml|LT|Ntilde|Oacute|Ocirc|Ograve|Oslash|Otilde|Ouml|QUOT|REG|THORN|Uacute|Ucirc|Ugrave|Uuml|Yacute|aacute|acirc|acute|aelig|agrave|amp|aring|atilde|auml|brvbar|ccedil|cedil|cent|copy|curren|deg|divide|eacute|ecirc|egrave|eth|euml|frac12|frac14|frac34|gt|iacute|icirc|iexcl|igrave|iquest|iuml|laquo|lt|macr|micro|middot|nbsp|not|ntilde|oacute|ocirc|ograve|ordf|ordm|oslash|otilde|ouml|para|plusmn|pound|quot|raquo|reg|sect|shy|sup1|sup2|sup3|szlig|thorn|times|uacute|ucirc|ugrave|uml|uuml|yacute|yen|yuml)/;

function decode(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]+;?|#[0-9]+;?|[a-zA-Z][a-zA-Z0-9]*;?)?/g, (match, body: string | undefined, offset: number) => {
    if (!body) return match;
    if (body[0] === "#") {
      if (!body.endsWith(";")) bail();
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2, -1), 16) : parseInt(body.slice(1, -1), 10);
      // 0, C1 controls (mapped from windows-1252), surrogates and out of range all get the standard's special cases.
      if (!(code > 0 && code <= 0x10ffff) || (code >= 0x80 && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff)) bail();
      return String.fromCodePoint(code);
    }
    if (body.endsWith(";")) {
      const value = NAMED[body.slice(0, -1)];
      return value ?? bail();
    }
    if (LEGACY.test(text.slice(offset))) bail();
    return match;
  });
}

/** Tab, line feed, form feed, space: the tokenizer's whitespace (carriage returns are gone by then). */
const isSpace = (code: number) => code === 9 || code === 10 || code === 12 || code === 32;
const RAW_END = new Map([...RAW_TEXT, "title"].map((name) => [name, new RegExp(`</${name}[\\t\\n\\f />]`, "ig")]));

export function fastParse(html: string): LiteElement | undefined {
  try {
    return parse(html);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function parse(input: string): LiteElement {
  if (input.includes("\0")) bail();
  const html = input.includes("\r") ? input.replace(/\r\n?/g, "\n") : input;
  const root = new LiteElement("x-turndown");
  const stack: LiteElement[] = [root];
  let current = root;
  let textBreak = false; // a comment was here: the text after it is a new node, as in the DOM
  let skipNewline = false; // just after <pre>/<listing>

  const push = (element: LiteElement) => {
    current.appendChild(element);
    stack.push(element);
    current = element;
  };
  /** Pops down to and including stack[index]; a formatting element popped by anything else than its own end or a cell/table closing would be reconstructed later by the standard parser. */
  const popTo = (index: number, clearsFormatting: boolean) => {
    if (index <= 0) bail();
    for (let i = stack.length - 1; i > index; i--) if (!clearsFormatting && FORMATTING.has(stack[i]!.localName)) bail();
    stack.length = index;
    current = stack[index - 1]!;
  };
  /** Index of the innermost open element named `name` before any of `boundaries`, or -1. */
  const inScope = (names: Set<string> | string, boundaries: Set<string>) => {
    for (let i = stack.length - 1; i > 0; i--) {
      const name = stack[i]!.localName;
      if (typeof names === "string" ? name === names : names.has(name)) return i;
      if (boundaries.has(name)) return -1;
    }
    return -1;
  };
  const SCOPE = set("applet caption html table td th marquee object template");
  const BUTTON_SCOPE = set("applet caption html table td th marquee object template button");
  const LIST_SCOPE = set("applet caption html table td th marquee object template ol ul");
  const TABLE_SCOPE = set("html table template");
  const closeP = () => {
    const index = inScope("p", BUTTON_SCOPE);
    if (index > 0) popTo(index, false);
  };
  const insertText = (text: string) => {
    if (!text) return;
    const last = current.lastChild;
    if (last && last.nodeType === 3 && !textBreak) last.data += text;
    else current.appendChild(new LiteText(text));
    textBreak = false;
  };
  const inTable = () => TABLE_CONTEXT.has(current.localName);
  /** The innermost cell, when no table part is open inside it. */
  const openCell = () => {
    for (let i = stack.length - 1; i > 0; i--) {
      const name = stack[i]!.localName;
      if (name === "td" || name === "th") return i;
      if (name === "table" || name === "caption") return -1;
    }
    return -1;
  };

  const startTag = (name: string, attributes: Map<string, string> | undefined) => {
    if (UNSUPPORTED.has(name)) bail();
    if (name === "html" || name === "body" || name === "head") return;
    if (inTable()) {
      if (name === "tr") {
        if (current.localName === "tr") popTo(stack.length - 1, true);
        if (current.localName === "table") push(new LiteElement("tbody"));
        push(new LiteElement("tr", attributes));
      } else if (name === "td" || name === "th") {
        if (current.localName === "table") push(new LiteElement("tbody"));
        if (TABLE_SECTIONS.has(current.localName)) push(new LiteElement("tr"));
        push(new LiteElement(name, attributes));
      } else if (TABLE_SECTIONS.has(name)) {
        while (current.localName !== "table") popTo(stack.length - 1, true);
        push(new LiteElement(name, attributes));
      } else if (name === "script" || name === "style") {
        push(new LiteElement(name, attributes));
      } else bail(); // foster parenting
      return;
    }
    if (CELL_BREAKERS.has(name)) {
      const cell = openCell();
      if (cell < 0) return; // outside a table these are ignored
      popTo(cell, true);
      startTag(name, attributes);
      return;
    }
    if (name === "li" || name === "dd" || name === "dt") {
      const same = name === "li" ? LI : DD_DT;
      for (let i = stack.length - 1; i > 0; i--) {
        const open = stack[i]!.localName;
        if (same.has(open)) {
          popTo(i, false);
          break;
        }
        if (SPECIAL.has(open) && open !== "address" && open !== "div" && open !== "p") break;
      }
      closeP();
    } else if (CLOSES_P.has(name)) {
      closeP();
      if (HEADINGS.has(name) && HEADINGS.has(current.localName)) popTo(stack.length - 1, false);
      if (name === "form" && stack.some((element) => element.localName === "form")) bail();
    } else if (name === "a") {
      for (let i = stack.length - 1; i > 0; i--) {
        const open = stack[i]!.localName;
        if (open === "a") bail();
        if (open === "td" || open === "th") break;
      }
    }
    // table: no p closing, since turndown's wrapper puts the document in quirks mode.
    const element = new LiteElement(name, attributes);
    if (VOID.has(name)) current.appendChild(element);
    else push(element);
    if (name === "pre" || name === "listing") skipNewline = true;
  };

  const endTag = (name: string) => {
    if (name === "html" || name === "body" || name === "head") return;
    if (name === "p" || name === "br" || name === "form" || name === "x-turndown" || UNSUPPORTED.has(name)) {
      if (name !== "p" && name !== "form") bail();
      const index = inScope(name, name === "p" ? BUTTON_SCOPE : SCOPE);
      if (index < 0) bail(); // a stray </p> makes an empty paragraph; a stray </form> depends on the form pointer
      // </form> takes the form out of the stack without closing what is open inside it.
      if (name === "form" && index !== stack.length - 1 - countImplied(index, name)) bail();
      popTo(index, false);
      return;
    }
    if (inTable()) {
      const index = inScope(name, TABLE_SCOPE);
      if (name === "table" || TABLE_SECTIONS.has(name) || name === "tr") {
        if (index > 0) popTo(index, true);
        return;
      }
      if (stack.some((element) => element.localName === name)) bail();
      return;
    }
    if (name === "td" || name === "th") {
      const index = inScope(name, TABLE_SCOPE);
      if (index > 0) popTo(index, true);
      return;
    }
    if (name === "table" || TABLE_SECTIONS.has(name) || name === "tr") {
      const cell = openCell();
      if (cell > 0 && inScope(name, TABLE_SCOPE) > 0) {
        popTo(cell, true);
        endTag(name);
      } else if (stack.some((element) => element.localName === name)) bail();
      return;
    }
    if (FORMATTING.has(name)) {
      if (current.localName === name) popTo(stack.length - 1, false);
      else if (stack.some((element) => element.localName === name)) bail();
      return;
    }
    if (HEADINGS.has(name)) {
      const index = inScope(HEADINGS, SCOPE);
      if (index < 0) return;
      if (stack[index]!.localName !== name) bail();
      popTo(index, false);
      return;
    }
    if (SPECIAL.has(name)) {
      const index = inScope(name, name === "li" ? LIST_SCOPE : SCOPE);
      if (index > 0) popTo(index, false);
      return;
    }
    // Any other end tag: the innermost open element of that name, unless a special element comes first.
    for (let i = stack.length - 1; i > 0; i--) {
      const open = stack[i]!.localName;
      if (open === name) return popTo(i, false);
      if (SPECIAL.has(open)) return;
    }
  };
  const countImplied = (index: number, except: string) => {
    let count = 0;
    for (let i = stack.length - 1; i > index && IMPLIED_END.has(stack[i]!.localName) && stack[i]!.localName !== except; i--) count++;
    return count;
  };

  let at = 0;
  const length = html.length;
  while (at < length) {
    const lt = html.indexOf("<", at);
    const end = lt < 0 ? length : lt;
    if (end > at) {
      let text = html.slice(at, end);
      if (skipNewline && text[0] === "\n") text = text.slice(1);
      skipNewline = false;
      if (inTable()) {
        if (/[^\t\n\f\r ]/.test(text)) bail();
        insertText(text);
      } else insertText(decode(text));
    }
    if (lt < 0) break;
    at = lt;
    skipNewline = false;
    const next = html[at + 1];
    if (next === "!") {
      if (html.startsWith("<!--", at)) {
        const close = html.indexOf("-->", at + 4);
        // "<!-->" and "<!--->" end a comment early in the standard.
        if (close < 0 || close < at + 5) bail();
        at = close + 3;
        textBreak = true;
        continue;
      }
      if (/^<!doctype/i.test(html.slice(at, at + 9))) {
        const close = html.indexOf(">", at);
        if (close < 0) bail();
        at = close + 1;
        continue;
      }
      bail();
    }
    const closing = next === "/";
    const nameStart = closing ? at + 2 : at + 1;
    if (!/[a-zA-Z]/.test(html[nameStart] ?? "")) {
      if (next === "?" || closing) bail();
      insertText("<"); // a lone "<" is text
      at += 1;
      continue;
    }
    // Tag name and attributes, as the standard tokenizer splits them.
    let i = nameStart;
    while (i < length) {
      const code = html.charCodeAt(i);
      if (isSpace(code) || code === 47 || code === 62) break;
      i++;
    }
    const name = html.slice(nameStart, i).toLowerCase();
    let attributes: Map<string, string> | undefined;
    for (;;) {
      while (i < length && (isSpace(html.charCodeAt(i)) || html.charCodeAt(i) === 47)) i++;
      if (i >= length) bail();
      if (html[i] === ">") break;
      if (html[i] === "=") bail();
      const start = i;
      while (i < length) {
        const code = html.charCodeAt(i);
        if (isSpace(code) || code === 47 || code === 62 || code === 61) break;
        i++;
      }
      const attribute = html.slice(start, i).toLowerCase();
      if (/["'<]/.test(attribute)) bail();
      while (i < length && isSpace(html.charCodeAt(i))) i++;
      let value = "";
      if (html[i] === "=") {
        i++;
        while (i < length && isSpace(html.charCodeAt(i))) i++;
        const quote = html[i];
        if (quote === '"' || quote === "'") {
          const close = html.indexOf(quote, i + 1);
          if (close < 0) bail();
          value = html.slice(i + 1, close);
          i = close + 1;
          if (i < length && !/[\t\n\f />]/.test(html[i]!)) bail();
        } else {
          const start = i;
          while (i < length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 62) i++;
          value = html.slice(start, i);
          if (/["'<=`]/.test(value) || !value) bail();
        }
        value = decode(value);
      }
      if (closing) continue;
      attributes ??= new Map();
      if (!attributes.has(attribute)) attributes.set(attribute, value);
    }
    at = i + 1;
    textBreak = false;
    if (closing) {
      endTag(name);
      continue;
    }
    startTag(name, attributes);
    if (RAW_TEXT.has(name) || name === "title") {
      const close = RAW_END.get(name)!;
      close.lastIndex = at;
      const found = close.exec(html);
      if (!found) bail();
      const content = html.slice(at, found!.index);
      if (name === "script" && content.includes("<!--")) bail();
      insertText(name === "title" ? decode(content) : content);
      at = found!.index;
    }
  }
  return root;
}
