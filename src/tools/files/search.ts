/**
 * What tools use of the search library directly: its pattern compiler (a bad pattern fails before any
 * file is read) and its result types. The search itself runs through `ctx.runtime.search`, where the
 * files are (in a worker beside them on embedded).
 */
export { compilePattern } from "../../search/matcher.js";
export type { SearchMatch } from "../../search/results.js";
