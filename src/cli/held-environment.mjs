/**
 * Keeps the provider keys of a `workbench` process where the commands it runs cannot read them.
 *
 * Removing a key from a command's environment is not enough on Linux: `/proc/<pid>/environ` of the
 * workbench process (its parent, `$PPID`) shows the environment it was started with, and `ps e` prints
 * it. That file is a window on the process's own memory (the block between `env_start` and `env_end` in
 * `/proc/self/stat`), so the process can blank the entries there by writing to `/proc/self/mem`. Node
 * offers no execve or prctl to re-exec without them or to become non-dumpable, and this needs neither.
 *
 * Plain JavaScript, so the bin runs it before the TypeScript loader: that loader starts a helper process
 * (esbuild) on its first compile, which would inherit the keys. The bin calls holdStartEnvironment() first: the whole environment is copied into memory (what the
 * run reads its keys from), then the key variables are deleted from `process.env` (unsetenv: no child
 * inherits them, and the C library no longer points into the block) and their `NAME=value` bytes are
 * zeroed. Variables found to hold keys later (a provider's `{env:NAME}`) go the same way through
 * hideVariables(), before any command runs.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

/** The usual key variables of the built-in providers (a configured provider may add more: run-env.ts). */
export const BUILTIN_KEY_VARIABLES = Object.freeze([
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "GEMINI_API_KEY",
  "OPENROUTER_API_KEY",
]);

/** @type {Readonly<Record<string, string>> | undefined} */
let held;

/** Why a variable could not be cleared from `/proc/self/environ` (other than not being there). */
class EnvironBlockError extends Error {}

/** The environment the process started with: keys included, even once hidden. */
export function startEnvironment() {
  return held ?? process.env;
}

/**
 * Copies the environment, then hides the named variables. Returns the names whose bytes could not be
 * cleared from the process's environment block, with why (empty where all went, and off Linux).
 */
export function holdStartEnvironment(names) {
  /** @type {Record<string, string>} */
  const copy = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) copy[name] = value;
  held = Object.freeze(copy);
  return hideVariables(names);
}

/**
 * Deletes the variables from `process.env` and zeroes their entries in the environment block. Does
 * nothing until holdStartEnvironment() ran (a test calling the CLI in its own process keeps its env).
 */
export function hideVariables(names) {
  if (!held) return [];
  const wanted = [...names].filter((name) => name.length > 0 && !name.includes("="));
  for (const name of wanted) delete process.env[name];
  if (process.platform !== "linux") return [];
  try {
    clearEnvironEntries(wanted);
    return [];
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

/** The block's bounds: fields 50 and 51 of `/proc/self/stat` (1-based, as proc(5) counts them). */
function environBounds() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) {
    throw new EnvironBlockError("/proc/self/stat has no environment bounds (a kernel before 3.5?)");
  }
  return { start, end };
}

/** @param {string[]} names */
function clearEnvironEntries(names) {
  if (names.length === 0) return;
  const { start } = environBounds();
  const block = readFileSync("/proc/self/environ");
  const prefixes = names.map((name) => Buffer.from(`${name}=`));
  const spans = entriesNamed(block, prefixes);
  if (spans.length === 0) return;
  let fd;
  try {
    fd = openSync("/proc/self/mem", "r+");
  } catch (error) {
    throw new EnvironBlockError(
      `cannot write /proc/self/mem (${error && typeof error === "object" && "code" in error ? error.code : "error"})`,
    );
  }
  try {
    for (const span of spans) {
      const written = writeSync(fd, Buffer.alloc(span.length), 0, span.length, start + span.offset);
      if (written !== span.length) throw new EnvironBlockError(`wrote ${written} of ${span.length} bytes to /proc/self/mem`);
    }
  } finally {
    closeSync(fd);
  }
  if (entriesNamed(readFileSync("/proc/self/environ"), prefixes).length > 0) {
    throw new EnvironBlockError("the environment block still holds a key after clearing it");
  }
}

/** Where the entries starting with one of the prefixes lie in the block (every one: a name may repeat). */
/**
 * @param {Buffer} block
 * @param {Buffer[]} prefixes
 */
function entriesNamed(block, prefixes) {
  /** @type {Array<{ offset: number; length: number }>} */
  const spans = [];
  for (let offset = 0; offset < block.length; ) {
    let end = block.indexOf(0, offset);
    if (end === -1) end = block.length;
    const entry = block.subarray(offset, end);
    if (prefixes.some((prefix) => entry.length >= prefix.length && entry.subarray(0, prefix.length).equals(prefix))) {
      spans.push({ offset, length: end - offset });
    }
    offset = end + 1;
  }
  return spans;
}

// What the TypeScript loader and its compiler need: where to find programs, files and their cache, and
// their own settings. Nothing that may hold a key.
const LOADER_VARIABLES = /^(PATH|HOME|TMPDIR|TMP|TEMP|LANG|LC_[A-Z]+|XDG_CACHE_HOME|TSX_\w+|ESBUILD_\w+|NODE_\w+)$/;

/**
 * Runs `start` (which starts the TypeScript loader) with only the loader's variables in `process.env`: the
 * loader runs in a thread of its own that copies the environment when it starts, and its compiler runs
 * in a process of its own started from that copy, both living as long as this one. Keys a configured
 * provider names are known only once the config is read, with the loader running, so the loader must
 * never see any variable it does not need.
 */
/** @param {() => Promise<unknown>} start */
export async function withLoaderEnvironment(start) {
  /** @type {Record<string, string>} */
  const put = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || LOADER_VARIABLES.test(name)) continue;
    put[name] = value;
    delete process.env[name];
  }
  try {
    await start();
  } finally {
    for (const [name, value] of Object.entries(put)) process.env[name] = value;
  }
}
