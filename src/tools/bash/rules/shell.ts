/** `bash -c 'text'` (sh, zsh, dash...): the text is parsed and judged in a child shell; `bash script.sh` judges the script's path. */
import { SHELLS } from "../commands.js";
import { steady } from "../flow.js";
import { literal } from "../words.js";
import type { CommandRule } from "./rule.js";

export const shellRule: CommandRule = {
  names: SHELLS,
  async run(walker, context, _name, args) {
    const words = args.map(literal);
    // `-c` may sit in a cluster (`-lc`) or after options we do not know to take a value (`--rcfile x -c`):
    // every cluster holding a `c` is read as one, with the first non-option word after it as the text.
    const strings: number[] = [];
    words.forEach((word, i) => {
      if (word !== null && /^-[A-Za-z]*c[A-Za-z]*$/.test(word)) strings.push(i);
    });
    for (const at of strings) {
      let i = at + 1;
      while (i < args.length && /^[-+]./.test(words[i] ?? "")) i += /^[-+][oO]$/.test(words[i]!) ? 2 : 1;
      const command = args[i];
      const text = command ? literal(command) : null;
      if (text === null) {
        walker.unjudgeable(context, "a shell runs text that is not known before it runs", command?.text ?? context.text);
        continue;
      }
      // A child shell: its cd stays there.
      await walker.nested(context, text, false);
    }
    if (strings.length > 0) return steady(context.cwds);
    let i = 0;
    while (i < args.length && words[i] !== null && /^[-+]./.test(words[i]!) && words[i] !== "--")
      i += /^[-+][oO]$|^--(rcfile|init-file)$/.test(words[i]!) ? 2 : 1;
    if (words[i] === "--") i++;
    const script = args[i];
    if (!script || words[i] === "-") {
      walker.unjudgeable(context, "a shell reading commands from its input");
      return steady(context.cwds);
    }
    // `bash script.sh`: the script's path is judged; what it does inside is not read, as for any program.
    await walker.paths.argument({ command: context.text, node: script, cwds: context.cwds, kind: "file", commandName: null });
    return steady(context.cwds);
  },
};
