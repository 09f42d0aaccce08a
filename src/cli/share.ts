/**
 * `workbench share` and `workbench open`: share links for docs authors' builds. `share` reads a folder (and
 * a session file) into a link, or a `.workbench.json` with `--file`; `open` writes a link's or a file's
 * files back out byte for byte. Everything is checked before the first byte is written, and a link on the
 * way into the target folder is never followed.
 */
import { lstat, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import {
  decodeShareLink,
  encodeShareLink,
  fromShareFile,
  LINK_FILE_CHARS,
  LINK_WARN_CHARS,
  toShareFile,
  type ShareResult,
  type ShareState,
} from "../embed/share/index.js";
import { shareContent } from "../embed/share/content.js";
import { isVcsName } from "../workspace/name-rules.js";
import { isKeyFile, KEY_FILE_NOTE } from "../embed/share/secrets.js";
import { filesOf } from "../embed/share/validate.js";
import { SessionFile } from "../session/record/session-json.js";
import { UsageError, type CliIO } from "./cli-session.js";
import { errorMessage } from "../base/error-message.js";

const DEFAULT_BASE = "http://127.0.0.1:5173/";

/** Folders a share leaves out: version control (every kind: a link refuses them) and installed packages. */
const skipped = (name: string) => name === "node_modules" || isVcsName(name);

async function readFolder(root: string, io: CliIO): Promise<ShareState["files"]> {
  const entries: [string, string | Uint8Array][] = [];
  async function walk(dir: string): Promise<void> {
    const list = await readdir(dir, { withFileTypes: true });
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of list) {
      const path = join(dir, entry.name);
      const rel = relative(root, path).split(sep).join("/");
      if (entry.isDirectory()) {
        if (skipped(entry.name)) io.err(`workbench: left out ${rel}/\n`);
        else await walk(path);
      } else if (entry.isFile() && isVcsName(entry.name)) io.err(`workbench: left out ${rel} (it points git at a repository)\n`);
      else if (entry.isFile() && isKeyFile(entry.name)) io.err(`workbench: left out ${rel}: ${KEY_FILE_NOTE}\n`);
      else if (entry.isFile()) entries.push([rel, shareContent(new Uint8Array(await readFile(path)))]);
      else
        io.err(`workbench: left out ${rel} (${entry.isSymbolicLink() ? "a symbolic link: links are not shared" : "not a regular file"})\n`);
    }
  }
  await walk(root);
  return Object.fromEntries(entries);
}

async function readSession(file: string): Promise<SessionFile> {
  const text = await readFile(file, "utf8").catch((error: unknown) => {
    throw new UsageError(`cannot read ${file}: ${errorMessage(error)}`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${file} is not JSON (${errorMessage(error)}): give a session exported from the page (Session ▾ → Export) or by workbench run --session-file`,
    );
  }
  const parsed = SessionFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${file} is not a session export: at ${issue.path.join(".") || "the top level"}: ${issue.message}`);
  }
  return parsed.data;
}

const SHARE_USAGE = `usage: workbench share --dir <folder> [--session FILE] [--base URL] [--name NAME] [--file OUT.workbench.json]
  Prints a link that opens the folder's files (and a session) in the workbench, in a new workspace.
  .git, node_modules, links and files that may hold keys (*.env) are left out, each with a note.
  --session FILE  a session exported from the page or written by workbench run --session-file
  --base URL      the workbench's address (default ${DEFAULT_BASE})
  --name NAME     the workspace's name (default: the folder's name)
  --file OUT      write a .workbench.json file instead of a link (for shares too long to paste)`;

const OPEN_USAGE = `usage: workbench open <link | file.workbench.json> --dir <folder> [--session OUT] [--force]
  Writes a share's files out into the folder, byte for byte: never through a link in it, and never over a
  file that exists unless --force.
  --session OUT  also write the share's session (the export format) to OUT`;

export async function shareMain(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      dir: { type: "string" },
      session: { type: "string" },
      base: { type: "string" },
      name: { type: "string" },
      file: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(`${SHARE_USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`workbench share takes no arguments besides its options (got ${positionals.join(" ")})`);
  if (!values.dir) throw new UsageError("--dir <folder> is required: the folder to share");
  const dir = resolve(values.dir);
  const stats = await lstat(dir).catch(() => undefined);
  if (!stats?.isDirectory()) throw new UsageError(`${values.dir} is not a folder`);
  const base = values.base ?? DEFAULT_BASE;
  try {
    new URL(base);
  } catch {
    throw new UsageError(`--base must be the workbench's address (like ${DEFAULT_BASE}), got ${base}`);
  }
  const state: ShareState = {
    name: (values.name ?? basename(dir)).slice(0, 80),
    files: await readFolder(dir, io),
    ...(values.session ? { session: await readSession(values.session) } : {}),
  };
  if (values.file) {
    await writeFile(values.file, toShareFile(state));
    io.out(`${values.file}\n`);
    return 0;
  }
  const link = await encodeShareLink(state, base);
  if (link.length > LINK_FILE_CHARS) {
    io.err(
      `workbench: the link would be ${link.length} characters, more than the ${LINK_FILE_CHARS} a link should carry: write a file with --file NAME.workbench.json and open it with #from=<its address> or by dropping it on the page\n`,
    );
    return 1;
  }
  if (link.length > LINK_WARN_CHARS)
    io.err(`workbench: the link is ${link.length} characters; chat apps and mail may cut links past about ${LINK_WARN_CHARS}\n`);
  io.out(`${link}\n`);
  return 0;
}

/** A link (an address, a #share= hash) or a file holding a `.workbench.json` or a link. */
async function readShare(source: string): Promise<ShareResult> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || source.startsWith("#")) return decodeShareLink(source);
  const bytes = await readFile(source).catch((error: unknown) => {
    throw new UsageError(`cannot read ${source}: ${errorMessage(error)} (give a share link or a .workbench.json file)`);
  });
  const text = new TextDecoder().decode(bytes).trim();
  return text.startsWith("{") ? fromShareFile(bytes, source) : decodeShareLink(text);
}

/**
 * Checks where the share's files would land under `root`, before any is written: never through a symbolic
 * link, never a file where a folder must go, never (without force) over an existing file. Each folder is
 * looked at once, however many files it holds, so the cost is linear in files plus folders.
 */
async function checkTargets(root: string, paths: readonly string[], force: boolean): Promise<void> {
  const folders = new Map<string, Promise<"missing" | "present">>();
  const folder = (rel: string): Promise<"missing" | "present"> => {
    if (rel === "") return Promise.resolve("present");
    let known = folders.get(rel);
    if (!known) {
      known = (async () => {
        const parent = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
        if ((await folder(parent)) === "missing") return "missing";
        const stats = await lstat(join(root, ...rel.split("/"))).catch(() => undefined);
        if (!stats) return "missing";
        if (stats.isSymbolicLink())
          throw new Error(
            `${rel} is a symbolic link: the share's files are never written through one. Remove it or choose another folder.`,
          );
        if (!stats.isDirectory()) throw new Error(`${rel} is a file, but the share puts files inside it. Choose another folder.`);
        return "present";
      })();
      folders.set(rel, known);
    }
    return known;
  };
  for (const rel of paths) {
    const parent = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
    if ((await folder(parent)) === "missing") continue;
    const stats = await lstat(join(root, ...rel.split("/"))).catch(() => undefined);
    if (!stats) continue;
    if (stats.isSymbolicLink())
      throw new Error(`${rel} is a symbolic link: the share's files are never written through one. Remove it or choose another folder.`);
    if (stats.isDirectory()) throw new Error(`${rel} is a folder here, but a file in the share. Choose another folder.`);
    if (!force) throw new Error(`${rel} exists already: choose an empty folder, or pass --force to replace the share's files in it.`);
  }
}

export async function openMain(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      dir: { type: "string" },
      session: { type: "string" },
      force: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(`${OPEN_USAGE}\n`);
    return 0;
  }
  const [source, extra] = positionals;
  if (!source || extra !== undefined) throw new UsageError("workbench open takes one link or .workbench.json file");
  if (!values.dir) throw new UsageError("--dir <folder> is required: where the share's files go");
  const result = await readShare(source);
  if (!result.ok) {
    io.err(`workbench: ${result.error}\n`);
    return 1;
  }
  const dir = resolve(values.dir);
  const files = filesOf(result.state);
  const rootStats = await lstat(dir).catch(() => undefined);
  if (rootStats && !rootStats.isDirectory()) throw new UsageError(`${values.dir} is not a folder`);
  try {
    await checkTargets(
      dir,
      files.map((file) => file.path),
      values.force ?? false,
    );
    // The session file is the person's too: the same promise as the share's files, checked before any write.
    if (values.session && result.state.session && !values.force && (await lstat(values.session).catch(() => undefined))) {
      throw new Error(`${values.session} exists already: choose another --session file, or pass --force to replace it.`);
    }
  } catch (error) {
    io.err(`workbench: nothing was written: ${errorMessage(error)}\n`);
    return 1;
  }
  const made = new Set<string>();
  for (const file of files) {
    const target = join(dir, ...file.path.split("/"));
    // Each folder once: a recursive mkdir per file would walk every parent again for every file.
    if (!made.has(dirname(target))) await mkdir(dirname(target), { recursive: true });
    made.add(dirname(target));
    await writeFile(target, file.data, { flag: values.force ? "w" : "wx" });
  }
  if (values.session && result.state.session)
    await writeFile(values.session, JSON.stringify(result.state.session, null, 2), { flag: values.force ? "w" : "wx" });
  io.out(
    `wrote ${files.length} file${files.length === 1 ? "" : "s"} to ${dir}${values.session && result.state.session ? `, the session to ${values.session}` : ""}\n`,
  );
  if (!result.state.session && values.session) io.err("workbench: the share has no session; none was written\n");
  return 0;
}
