/**
 * The tree-sitter bash parser, loaded once and only when a command first needs parsing.
 *
 * Where the two wasm files come from depends on the host: in the browser they are served from `public/wasm`
 * (copied there from node_modules by scripts/copy-wasm.mjs) under Vite's base URL; in Node web-tree-sitter
 * finds its own runtime wasm beside its module and the grammar is read from node_modules. A host with other
 * needs (a CDN, an embed under another path, bytes already in memory) calls `setBashWasmLocation` first.
 */
import type { Parser, Tree } from "web-tree-sitter";
import { errorMessage } from "../../base/error-message.js";

export interface BashWasmLocation {
  /** web-tree-sitter's own wasm; omitted, it is looked up beside the web-tree-sitter module. */
  runtime?: string;
  /** The tree-sitter-bash grammar: a URL or path to its wasm, or the bytes. */
  language: string | URL | Uint8Array;
}

export class BashParseError extends Error {
  override readonly name = "BashParseError";
}

// A variable, not a literal in `new URL(...)`: Vite would otherwise bundle the grammar a second time as an
// asset of the browser build, where it is already served from public/wasm.
const NODE_GRAMMAR = "../../../node_modules/tree-sitter-bash/tree-sitter-bash.wasm";

function defaultLocation(): BashWasmLocation {
  const isNode = typeof process !== "undefined" && typeof process.versions?.node === "string";
  if (isNode) return { language: new URL(NODE_GRAMMAR, import.meta.url) };
  const base = import.meta.env.BASE_URL ?? "/";
  return { runtime: `${base}wasm/web-tree-sitter.wasm`, language: `${base}wasm/tree-sitter-bash.wasm` };
}

let locate: () => BashWasmLocation = defaultLocation;
let loading: Promise<Parser> | undefined;

/** Where to load the wasm from; takes effect for the next load (call it before the first parse). */
export function setBashWasmLocation(location: BashWasmLocation | (() => BashWasmLocation)): void {
  locate = typeof location === "function" ? location : () => location;
  loading = undefined;
}

/** The shared parser; the first call loads the wasm, later calls wait for the same load. */
export function bashParser(): Promise<Parser> {
  loading ??= load().catch((error: unknown) => {
    // A failed load (offline, wrong base URL) must not stick: the next command tries again.
    loading = undefined;
    const reason = errorMessage(error);
    throw new BashParseError(
      `Failed to load the bash parser (tree-sitter wasm): ${reason}. Check that public/wasm is served, then try again.`,
    );
  });
  return loading;
}

async function load(): Promise<Parser> {
  const { Parser, Language } = await import("web-tree-sitter");
  const where = locate();
  const runtime = where.runtime;
  await Parser.init(runtime === undefined ? undefined : { locateFile: () => runtime });
  const language = await Language.load(where.language);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/**
 * Parses a command line. The caller must `delete()` the tree. Syntax errors fail here rather than being
 * analysed around: a command we cannot read completely cannot be judged safe.
 */
export async function parseBash(command: string): Promise<Tree> {
  const parser = await bashParser();
  const tree = parser.parse(command);
  if (!tree) throw new BashParseError("Failed to parse command");
  if (tree.rootNode.hasError) {
    const near = firstError(tree);
    tree.delete();
    throw new BashParseError(`Failed to parse command: bash syntax error ${near}. Check the quoting and brackets, then run it again.`);
  }
  return tree;
}

function firstError(tree: Tree): string {
  const cursor = tree.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) {
        const what = node.isMissing ? `missing ${JSON.stringify(node.type)}` : `near ${JSON.stringify(node.text.slice(0, 40))}`;
        return `${what} (line ${node.startPosition.row + 1})`;
      }
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return "";
      }
    }
  } finally {
    cursor.delete();
  }
}
