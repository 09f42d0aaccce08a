/**
 * Spotting options in a program's words the way getopt reads them, for rules that only need to know
 * whether an option is present: short letters may sit in a cluster (`-cPf`), long ones may carry `=value`.
 * A word we cannot read (`$X`) might be any option, which the rules treat as present.
 */

/** Whether `word` is a short-option cluster holding one of `letters` (`-cPf` holds `P`). */
export function clusterHas(word: string, letters: string): boolean {
  return /^-[^-]/.test(word) && [...word.slice(1)].some((letter) => letters.includes(letter));
}

/** Whether `word` is one of the long options `names`, written alone or as `--name=value`. */
export function isLong(word: string, names: readonly string[]): boolean {
  return names.some((name) => word === name || word.startsWith(`${name}=`));
}

/**
 * The first of `words` (null: not known before running) that is such an option: `letters` in a short
 * cluster, or one of `long`; or the first unknown word, which could be one. Words after `--` are operands.
 */
export function findOption(words: readonly (string | null)[], letters: string, long: readonly string[]): number {
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === null || word === undefined) return i;
    if (word === "--") return -1;
    if (clusterHas(word, letters) || isLong(word, long)) return i;
  }
  return -1;
}
