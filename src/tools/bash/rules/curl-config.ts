/**
 * curl reads a default config (`.curlrc` in $CURL_HOME, $XDG_CONFIG_HOME or $HOME) unless `-q` or
 * `--disable` is its very first argument. The person's own is theirs; a line that points one of those
 * variables somewhere (`HOME=. curl`, after writing a `.curlrc` naming `file:///...`) makes curl follow
 * a config the rules do not read, so it asks.
 */
import type { Node } from "web-tree-sitter";
import { literal } from "../words.js";
import { lineSets } from "./assigned.js";
import type { CommandContext, Walker } from "./rule.js";

const CONFIG_HOMES = ["CURL_HOME", "XDG_CONFIG_HOME", "HOME"];

export function judgeCurlDefaultConfig(walker: Walker, context: CommandContext, args: Node[]): void {
  const first = args[0] ? literal(args[0]) : "";
  if (first === "-q" || first === "--disable") return;
  const set = lineSets(context, CONFIG_HOMES);
  if (set) walker.unjudgeable(context, `curl reads .curlrc from $${set}, which this line sets (pass -q first to skip it)`);
}
