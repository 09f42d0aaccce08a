/**
 * A ripgrep-compatible search over any file system with `readdir`, `stat`, `lstat`, `readFile` and
 * `realpath` (a runtime's `fs` fits as is). A leaf library: it imports nothing from the rest of the
 * workbench, so it can run beside the files (in the embedded runtime's worker) or in the page.
 *
 *   walk(fs, options)            the files ripgrep would search (rg --files), with size and mtime
 *   search(fs, options)          the matching lines (rg -n), with match positions
 *   searchEvents(fs, options)    the same plus ripgrep's "binary file matches" notices
 *   searchFiles(fs, options)     the same grouped by file (cheapest for large results)
 *   compilePattern(patterns, o)  a Matcher for ripgrep's regex dialect; SearchPatternError if invalid
 *
 * Order is deterministic (rg --sort path). Semantics follow ripgrep 13: see walk.ts (ignore files,
 * hidden, links, globs), binary.ts (NUL rules, BOMs) and matcher.ts (regex, linear time).
 */
export type { SearchFs, SearchDirEntry, SearchStat } from "./fs.js";
export type { WalkOptions } from "./walk.js";
export { walk } from "./walk.js";
export type { FileResult } from "./results.js";
export { search, searchEvents, searchFiles } from "./search.js";
export { SearchDeadlineError } from "./errors.js";
export { compilePattern, SearchPatternError, MAX_PATTERN_LENGTH } from "./matcher.js";
export { GlobError, compileGlob } from "./glob.js";
export { IgnoreRules, parseIgnoreFile } from "./ignore.js";
export type { SearchService, SearchQuery } from "./service.js";
export { createLocalSearchService } from "./service.js";
export { CachedSearchFs } from "./cached-fs.js";
