/**
 * util.inspect and util.format as Node has them (node-inspect-extracted: Node's own code, extracted for the
 * web); the browser build of util has an older inspect that prints Maps and Sets as `{}`.
 */
export { format, formatWithOptions, inspect } from "node-inspect-extracted";
