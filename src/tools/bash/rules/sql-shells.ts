/**
 * sqlite3 and duckdb run SQL given on their command line (`sqlite3 db "select readfile('/etc/passwd')"`),
 * through `-cmd` or `-init`, or on their input; SQL and dot commands can read, write and run anything, and
 * are not read here, so they ask as an interpreter's inline code does. The database file is judged as a
 * path (a `file:` URI too).
 */
import { literal } from "../words.js";
import { otherProgram, stdinFed } from "./program.js";
import type { CommandRule } from "./rule.js";

/** Options whose value is the next word (`-separator ,`); the value is neither the database nor SQL. */
const VALUED = new Set(["-separator", "-newline", "-nullvalue", "-vfs", "-maxsize", "-mmap", "-pagecache", "-lookaside", "-heap"]);
/** sqlite3's `-cmd`, `-init` and archive mode; duckdb's `-c` and `-s` run a command string. */
const RUNS_CODE = new Set(["-cmd", "-init", "-A", "-archive", "-c", "-s"]);

export const sqlShellRule: CommandRule = {
  names: ["sqlite3", "sqlite", "duckdb"],
  async run(walker, context, name, args) {
    const words = args.map(literal);
    let operands = 0;
    let why: string | null = null;
    for (let i = 0; i < words.length && why === null; i++) {
      const word = words[i];
      if (word === null || word === undefined) why = `${name} is given a word not known before it runs`;
      else if (word.startsWith("-") && word.length > 1) {
        const option = word.startsWith("--") ? word.slice(1) : word;
        if (RUNS_CODE.has(option)) why = `${name} runs SQL or commands given by ${word}`;
        else if (VALUED.has(option)) i++;
      } else if (++operands > 1) why = `${name} runs SQL, which can read, write and run anything`;
    }
    if (why === null && stdinFed(context.statement)) why = `${name} runs SQL from its input`;
    if (why !== null) walker.unjudgeable(context, why);
    return otherProgram(walker, context, name, args);
  },
};
