/**
 * HTML to turndown's output through a lite tree: the quick parser when the page is within what it models,
 * else the browser's DOMParser copied over; on Node a page the quick parser leaves goes to turndown as a
 * string (domino parses it). Same output as turndown(html) in every case.
 */
import type TurndownService from "turndown";
import { fastParse } from "./fast-parse.js";
import { fromDom, type LiteElement } from "./lite-dom.js";
import { liteTurndown } from "./lite-turndown.js";

function liteTree(html: string): LiteElement | undefined {
  const tree = fastParse(html);
  if (tree || typeof DOMParser === "undefined") return tree;
  // turndown's own wrapping, so the tree is the one it would build.
  const document = new DOMParser().parseFromString(`<x-turndown id="turndown-root">${html}</x-turndown>`, "text/html");
  const root = document.getElementById("turndown-root");
  return root ? fromDom(root) : undefined;
}

export function quickConvert(service: TurndownService, html: string): string {
  if (html === "") return "";
  const tree = liteTree(html);
  return tree ? liteTurndown(service, tree) : service.turndown(html);
}
