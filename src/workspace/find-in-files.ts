/**
 * What Find in files asks the search: ripgrep's rules (hidden files skipped; `.gitignore` honoured inside a
 * git repository, `.ignore` and `.rgignore` everywhere), and on top of them no `node_modules` folder is walked
 * into unless the person asks for it by naming it in the glob. A project that was never made a git
 * repository (the usual case in a fresh workspace after `npm install`) then shows its own files, not the
 * thousands an install writes. This is the only difference from `rg -g GLOB PATTERN`.
 */
import type { SearchQuery } from "../search/service.js";

/** The glob that keeps Find in files out of every `node_modules` folder (a folder glob: not walked into). */
const SKIP_NODE_MODULES = "!node_modules/";

export interface FindInFiles {
  root: string;
  pattern: string;
  caseInsensitive: boolean;
  /** The person's glob (rg -g), empty for none. */
  glob: string;
}

/** Whether the person's glob asks for node_modules (then it is searched as rg would). */
function asksForNodeModules(glob: string): boolean {
  return glob.includes("node_modules");
}

export function findInFilesQuery(request: FindInFiles): SearchQuery {
  const globs = request.glob ? [request.glob] : [];
  if (!asksForNodeModules(request.glob)) globs.push(SKIP_NODE_MODULES);
  return { root: request.root, patterns: [request.pattern], caseInsensitive: request.caseInsensitive, globs };
}
