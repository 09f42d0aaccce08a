/**
 * HTML to markdown and to plain text, both through turndown: it parses with the page's DOMParser in the
 * browser and its own bundled parser (domino) on Node, so both formats read a page the same way everywhere.
 * Comments never reach the output (turndown only visits elements and text).
 *
 * turndown's own parse (domino on Node) and its many textContent walks over a real DOM cost about a second
 * on a 1 MB page; it is given a lite tree instead (./quick-convert.ts), with the same output.
 */
import type TurndownService from "turndown";

let Turndown: typeof TurndownService | undefined;

/** turndown is loaded on the first conversion, so it stays out of the page's first paint. */
async function load(): Promise<typeof TurndownService> {
  Turndown ??= (await import("turndown")).default;
  return Turndown;
}

/** Elements whose content is not the page's text. */
const SKIPPED = ["script", "style", "noscript", "iframe", "object", "embed", "meta", "link", "template", "head"] as const;

const SKIPPED_NAMES = new Set(SKIPPED.map((name) => name.toUpperCase()));

const BLOCKS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "BR",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIELDSET",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TR",
  "UL",
]);

/** Anything turndown's markdown escapes would change: the characters it escapes anywhere, the starts it escapes at the start. */
const ESCAPED = /[\\*`[\]_]|^(?:-|\+ |=|#{1,6} |~~~|>|\d+\. )/;

let markdownService: TurndownService | undefined;
let textService: TurndownService | undefined;

async function markdown(): Promise<TurndownService> {
  if (!markdownService) {
    const TurndownService = await load();
    markdownService = new TurndownService({
      headingStyle: "atx",
      hr: "---",
      bulletListMarker: "-",
      codeBlockStyle: "fenced",
      emDelimiter: "*",
    });
    markdownService.remove([...SKIPPED]);
    // turndown escapes every text with thirteen replaces in turn; most texts hold nothing any of them matches
    // (this test is their union), and those are returned as they are.
    const escape = markdownService.escape.bind(markdownService);
    markdownService.escape = (value: string) => (ESCAPED.test(value) ? escape(value) : value);
  }
  return markdownService;
}

async function text(): Promise<TurndownService> {
  if (!textService) {
    const TurndownService = await load();
    // Every element gives its content as is (no markdown, no escaping); blocks and cells are separated.
    const service = new TurndownService();
    service.escape = (value: string) => value;
    service.remove([...SKIPPED]);
    service.addRule("plain", {
      // Not the skipped ones: rules added here are tried before turndown's remove list.
      filter: (node) => !SKIPPED_NAMES.has(node.nodeName),
      replacement: (content, node) => {
        const name = node.nodeName;
        if (name === "TD" || name === "TH") return `${content}\t`;
        return BLOCKS.has(name) ? `\n${content}\n` : content;
      },
    });
    textService = service;
  }
  return textService;
}

let quick: typeof import("./quick-convert.js") | undefined;

/** The quick path loads with turndown, on the first conversion, so neither is in the page's first paint. */
async function convert(service: TurndownService, html: string): Promise<string> {
  quick ??= await import("./quick-convert.js");
  return quick.quickConvert(service, html);
}

export async function htmlToMarkdown(html: string): Promise<string> {
  return await convert(await markdown(), html);
}

export async function htmlToText(html: string): Promise<string> {
  return (await convert(await text(), html))
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
