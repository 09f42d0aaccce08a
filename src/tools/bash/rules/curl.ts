/**
 * curl: besides its URLs (a `file:` URL is judged as the path it opens, in ../paths.ts), it reads files named
 * inside option values (`-d @file`, `-F name=@file`, `-H @file`) and whole configs of further options and
 * URLs (`-K file`, which this derivation does not read), so the first are judged as paths and the second asks.
 */
import { literal } from "../words.js";
import { clusterHas, isLong } from "./options.js";
import { judgeCurlDefaultConfig } from "./curl-config.js";
import { otherProgram } from "./program.js";
import type { CommandRule } from "./rule.js";

export const curlRule: CommandRule = {
  names: ["curl"],
  async run(walker, context, name, args) {
    judgeCurlDefaultConfig(walker, context, args);
    const words = args.map(literal);
    for (const [i, word] of words.entries()) {
      if (word === null) continue;
      if (word === "--") break;
      if (clusterHas(word, "K") || isLong(word, ["--config"])) {
        walker.unjudgeable(context, "curl reads options and URLs from a config file, which are not read here", args[i]!.text);
      }
      // `@file` and `name=@file` / `name=<file` send a file's contents.
      const file = fileSent(word);
      if (file) await walker.paths.text(context, file, args[i]!.text, "file");
    }
    return otherProgram(walker, context, name, args);
  },
};

/** The file whose contents a curl value sends (`@file`, `name=@file`, `name=<file`), if any. */
function fileSent(word: string): string | null {
  if (word.startsWith("@")) return word.slice(1);
  const at = [word.indexOf("=@"), word.indexOf("=<")].filter((i) => i >= 0);
  return at.length > 0 ? word.slice(Math.min(...at) + 2) : null;
}
