/** A path command's words sorted as getopt sorts them: options (with a path value glued on) and operands. */
import type { Node } from "web-tree-sitter";
import { GLUED_PATH_OPTIONS } from "../commands.js";
import { evaluateWord, textOf } from "../words.js";

export interface Operand {
  kind: "operand" | "glued";
  node: Node;
  /** For `glued`: the value written into the option word (`--target-directory=x`, `-t/x`). */
  glued?: string;
}

/** `dashIsOperand`: `-` and `-N` are operands (cd's `-`, pushd's `-2`), not standard input or options. */
export function operands(name: string, args: Node[], dashIsOperand = false): Operand[] {
  const out: Operand[] = [];
  const gluedLetters = GLUED_PATH_OPTIONS[name] ?? "";
  let options = true;
  for (const node of args) {
    const value = evaluateWord(node);
    const word = value.known ? textOf(value.chars) : null;
    if (options && word === "--") {
      options = false;
      continue;
    }
    // An option only when its leading dash was written unquoted or quoted alike: getopt sees no quotes.
    if (options && word !== null && word.startsWith("-") && word.length > 1 && !(dashIsOperand && /^-\d+$/.test(word))) {
      if (word.startsWith("--")) {
        const eq = word.indexOf("=");
        if (eq > 0) out.push({ kind: "glued", node, glued: word.slice(eq + 1) });
      } else {
        for (let j = 1; j < word.length; j++) {
          if (gluedLetters.includes(word[j]!)) {
            if (j + 1 < word.length) out.push({ kind: "glued", node, glued: word.slice(j + 1) });
            break;
          }
        }
      }
      continue;
    }
    if (word === "-" && !dashIsOperand) continue; // standard input
    out.push({ kind: "operand", node });
  }
  return out;
}
