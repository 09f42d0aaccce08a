/**
 * How tools reach the search library: through the runtime's files (the library is a leaf over a
 * minimal file-system interface that the runtime's fs satisfies).
 */
import { compilePattern, search, walk } from "../../search/index.js";
import type { Runtime } from "../../runtime/types.js";

export type SearchMatch = { path: string; lineNumber: number; line: string; matches: Array<{ start: number; end: number }> };

export function searchFiles(runtime: Runtime, options: Parameters<typeof search>[1]): AsyncIterable<SearchMatch> {
  return search(runtime.fs, options);
}

export function walkFiles(runtime: Runtime, options: Parameters<typeof walk>[1]) {
  return walk(runtime.fs, options);
}

export { compilePattern };
