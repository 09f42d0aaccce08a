const notFound = /^bash: (.+): command not found$/m;
// just-bash's wording for commands its browser build leaves out, which advises the embedding
// program rather than the person (or model) at the prompt.
const notInBrowser = /^bash: (.+): command not available in browser environments\..*$/gm;

/**
 * After the first "command not found", one line saying what the embedded shell can run, so a
 * missing `npm` or `python` is understood as a limit of this shell rather than a missing install.
 */
export function withCommandHint(stderr: string, commands: readonly string[]): string {
  return commandHinter(commands)(stderr);
}

/**
 * The same for a command line whose stderr comes in pieces (streamed statement by statement): the
 * hint follows the first "command not found" of the whole line, whichever piece holds it.
 */
export function commandHinter(commands: readonly string[]): (stderr: string) => string {
  let hinted = false;
  return (stderr) => {
    const text = stderr.replace(notInBrowser, "bash: $1: command not found");
    const match = hinted ? null : notFound.exec(text);
    if (!match) return text;
    hinted = true;
    const end = match.index + match[0].length + 1;
    // What people reach for that this shell may not have (python3 is there when the runtime has a sandbox).
    const reached = ["node", "npm", "python"];
    const present = reached.filter((name) => commands.includes(name));
    const absent = reached.filter((name) => !commands.includes(name));
    const among = present.length > 0 ? `${present.join(", ")} among them; ` : "";
    const missing = absent.length > 0 ? `${absent.join(", ")} or ` : "";
    const hint =
      `hint: the embedded shell runs only its own commands (${among}no ${missing}other installed programs): ` +
      `${[...commands].sort().join(" ")}; \`help\` lists the shell builtins.\n`;
    return text.slice(0, end) + hint + text.slice(end);
  };
}
