/**
 * The file walker, with ripgrep 13's rules for which files a search sees:
 *
 * - Paths given explicitly are always searched (no ignore, hidden or glob filter); folders among them
 *   are walked. A missing path is an error ("x: No such file or directory (os error 2)").
 * - In a walked folder: `--glob` overrides first, then ignore files (see ignore-stack.ts), then hidden
 *   names (a leading dot) unless `hidden`; a whitelisting ignore rule also admits a hidden name.
 * - Symbolic links are skipped unless `follow`. Followed, a dangling or looping link is an error, and
 *   a link to a folder that is an ancestor on the walked path is reported as a file-system loop
 *   ("File system loop found: a/loop points to an ancestor a") and not entered. As in ripgrep, these
 *   errors are reported even when the link itself would have been ignored.
 *
 * Order is deterministic: ripgrep's `--sort path` (each folder's entries by name, depth first). Folder
 * listings and ignore files are fetched ahead in parallel, so the order costs little.
 */
import { abortError } from "./errors.js";
import { describeFsError, errorCode, type SearchEntryType, type SearchFs, type SearchStat } from "./fs.js";
import { parseIgnoreFile, type IgnoreRules } from "./ignore.js";
import { dirRules, matchIgnoreFiles, type DirRules } from "./ignore-stack.js";
import { Overrides } from "./overrides.js";
import { dirnameOf, joinPath, resolvePath, stripDotSlash, trimSlashes } from "./path.js";

/** "outside": a link not followed because it leads out of `confine` (the text is `link -> real target`). */
export type MessageKind = "error" | "warning" | "outside";

const specialNames: Partial<Record<SearchEntryType, string>> = { fifo: "a FIFO (named pipe)", socket: "a socket", device: "a device" };

export interface WalkOptions {
  /** The folder the search runs in (absolute): relative paths and `--glob` patterns are taken from it. */
  root: string;
  /** Where to search: files or folders, relative to `root` or absolute. Default: `root` itself. */
  paths?: string[];
  /** Include hidden files and folders (rg --hidden). */
  hidden?: boolean;
  /** Follow symbolic links (rg --follow). */
  follow?: boolean;
  /**
   * Folders (absolute, real paths) that followed links must stay in. A link whose target, resolved
   * through every link, lies outside all of them is not followed (nothing there is stat'ed or read)
   * and is reported as an "outside" message `link -> target`. Absent: every link is followed, as rg -L.
   */
  confine?: string[];
  /** rg --glob patterns: `*.ts` to include, `!dist/**` to exclude. */
  globs?: string[];
  signal?: AbortSignal;
  /**
   * ripgrep's messages: errors (a dangling link, a loop, a missing path, an unreadable folder), which
   * make rg exit 2, and warnings (a bad line in an ignore file), which do not.
   */
  onMessage?: (text: string, kind: MessageKind) => void;
  /** How many folder listings and file reads may be in flight at once (default 24). */
  concurrency?: number;
}

export interface WalkEntry {
  /** Absolute path (through the link, for a followed symbolic link). */
  path: string;
  /** The path as ripgrep prints it: as given or joined onto what was given; "./" dropped for the default root. */
  displayPath: string;
  mtimeMs: number;
  size: number;
}

/** A file the walk found, before any stat. */
export interface WalkedFile {
  path: string;
  displayPath: string;
  /** Named on the command line rather than found in a folder. */
  explicit: boolean;
  /** Known when the walk had to stat it anyway (a followed link or an explicit path). */
  stat?: SearchStat;
  /**
   * Where to read it, when that differs from `path`: with `confine`, the real path judged when the
   * link was followed, so a link swapped afterwards (to lead outside) is not followed by the read.
   */
  readPath?: string;
}

/** The path a walked file's bytes are read from. */
export function readPathOf(file: WalkedFile): string {
  return file.readPath ?? file.path;
}

export { abortError };

/** Runs at most `limit` tasks at once. */
export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.active++;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.active--;
            this.queue.shift()?.();
          });
      };
      if (this.active < this.limit) start();
      else this.queue.push(start);
    });
  }
}

/** Compares names as ripgrep sorts them (by code point, which is UTF-8 byte order). */
function compareNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral characters) sort after every BMP character in code point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** True when `path` is `folder` or below it (both absolute, normalised). */
function within(folder: string, path: string): boolean {
  if (folder === "/") return true;
  return path === folder || path.startsWith(`${folder}/`);
}

interface Listing {
  entries: Array<{ name: string; type: SearchEntryType }>;
  rules: DirRules;
}

interface DirNode {
  display: string;
  abs: string;
  /** Real path, for loop detection. */
  real: string;
  parent: DirNode | undefined;
  listing: Promise<Listing | undefined>;
}

const decoder = new TextDecoder();

export class Walker {
  /** An error was reported (rg exits 2 then). */
  errored = false;
  private readonly fs: SearchFs;
  private readonly options: WalkOptions;
  private readonly overrides: Overrides | undefined;
  private readonly limiter: Limiter;
  private readonly parentCache = new Map<string, Promise<DirRules | undefined>>();

  /** Throws GlobError when a `--glob` does not parse. */
  constructor(fs: SearchFs, options: WalkOptions) {
    this.fs = fs;
    this.options = options;
    const globs = options.globs ?? [];
    this.overrides = globs.length > 0 ? new Overrides(globs, trimSlashes(options.root)) : undefined;
    this.limiter = new Limiter(options.concurrency ?? 24);
  }

  private message(text: string, kind: MessageKind): void {
    if (kind === "error") this.errored = true;
    this.options.onMessage?.(text, kind);
  }

  private checkAbort(): void {
    const signal = this.options.signal;
    if (signal?.aborted) throw abortError(signal);
  }

  /** The search paths as walked: the default is "./", printed without its "./". */
  get roots(): Array<{ display: string; isDefault: boolean }> {
    const paths = this.options.paths ?? [];
    if (paths.length === 0) return [{ display: "./", isDefault: true }];
    return paths.map((display) => ({ display, isDefault: false }));
  }

  async *files(): AsyncGenerator<WalkedFile> {
    for (const root of this.roots) {
      this.checkAbort();
      const abs = resolvePath(this.options.root, root.display);
      const shown = (display: string) => (root.isDefault ? stripDotSlash(display) : display);
      let stat: SearchStat;
      try {
        stat = await this.fs.stat(abs);
      } catch (error) {
        this.message(`${root.display}: ${describeFsError(error)}`, "error");
        continue;
      }
      const special = specialNames[stat.type];
      if (special) {
        // ripgrep would open it (and wait on a FIFO, or read /dev/zero forever): refused here.
        this.message(`${root.display}: is ${special}, not a regular file; it was not searched`, "error");
        continue;
      }
      if (stat.type !== "directory") {
        yield { path: abs, displayPath: shown(root.display), explicit: true, stat };
        continue;
      }
      let real: string;
      try {
        real = await this.fs.realpath(abs);
      } catch {
        real = abs;
      }
      const parents = await this.parentRules(dirnameOf(real), real === "/");
      const node: DirNode = {
        display: root.display,
        abs,
        real,
        parent: undefined,
        // Confined, folders are listed through their real paths (see WalkedFile.readPath).
        listing: this.limiter.run(() => this.list(this.options.confine ? real : abs, root.display, parents)),
      };
      // Depth first with an explicit stack: one generator, however deep the tree.
      const stack: Array<WalkedFile | DirNode> = [node];
      while (stack.length > 0) {
        const item = stack.pop()!;
        if ("listing" in item) {
          const children = await this.expand(item, real, root.isDefault);
          for (let k = children.length - 1; k >= 0; k--) stack.push(children[k]!);
        } else {
          yield item;
        }
      }
    }
  }

  /** A folder's children in order: files to report and folders to walk (their listing already started). */
  private async expand(node: DirNode, realRoot: string, strip: boolean): Promise<Array<WalkedFile | DirNode>> {
    this.checkAbort();
    const listing = await node.listing;
    if (!listing) return [];
    const follow = this.options.follow ?? false;
    type Child = { name: string; display: string; abs: string; kind: "file" | "dir"; stat?: SearchStat; real?: string };
    const decide = (name: string, display: string, abs: string, type: string, stat?: SearchStat, real?: string): Child | undefined => {
      if (type !== "file" && type !== "directory") return undefined;
      const isDir = type === "directory";
      if (this.skip(display, name, isDir, listing.rules, realRoot)) return undefined;
      return { name, display, abs, kind: isDir ? "dir" : "file", stat, real };
    };
    const confine = this.options.confine;
    const follow_ = async (name: string, display: string, abs: string): Promise<Child | undefined> => {
      if (confine) {
        // Judged before anything at the target is touched: where the link really leads.
        let target: string;
        try {
          target = await this.limiter.run(() => this.fs.realpath(abs));
        } catch (error) {
          this.message(`${display}: ${describeFsError(error)}`, "error");
          return undefined;
        }
        if (!confine.some((folder) => within(folder, target))) {
          this.message(`${display} -> ${target}`, "outside");
          return undefined;
        }
        // From here on the link is read through where it was judged to lead, not through its name.
        const stat = await this.limiter
          .run(() => this.fs.stat(target))
          .catch((error: unknown) => {
            this.message(`${display}: ${describeFsError(error)}`, "error");
            return undefined;
          });
        if (!stat) return undefined;
        if (stat.type === "directory") {
          for (let a: DirNode | undefined = node; a; a = a.parent) {
            if (a.real === target) {
              this.message(`File system loop found: ${display} points to an ancestor ${a.display}`, "error");
              return undefined;
            }
          }
        }
        return decide(name, display, abs, stat.type, stat, target);
      }
      let stat: SearchStat;
      try {
        stat = await this.limiter.run(() => this.fs.stat(abs));
      } catch (error) {
        this.message(`${display}: ${describeFsError(error)}`, "error");
        return undefined;
      }
      let real: string | undefined;
      if (stat.type === "directory") {
        try {
          real = await this.limiter.run(() => this.fs.realpath(abs));
        } catch (error) {
          this.message(`${display}: ${describeFsError(error)}`, "error");
          return undefined;
        }
        for (let a: DirNode | undefined = node; a; a = a.parent) {
          if (a.real === real) {
            this.message(`File system loop found: ${display} points to an ancestor ${a.display}`, "error");
            return undefined;
          }
        }
      }
      return decide(name, display, abs, stat.type, stat, real);
    };
    let pending = false;
    const early = listing.entries.map((entry): Child | undefined | Promise<Child | undefined> => {
      if (entry.type === "symlink" && !follow) return undefined;
      const display = joinPath(node.display, entry.name);
      const abs = node.abs === "/" ? `/${entry.name}` : `${node.abs}/${entry.name}`;
      if (entry.type === "symlink") {
        pending = true;
        return follow_(entry.name, display, abs);
      }
      return decide(entry.name, display, abs, entry.type);
    });
    const decided = pending ? await Promise.all(early) : (early as Array<Child | undefined>);
    const children: Array<WalkedFile | DirNode> = [];
    for (const child of decided) {
      if (!child) continue;
      const real = child.real ?? (node.real === "/" ? `/${child.name}` : `${node.real}/${child.name}`);
      if (child.kind === "dir") {
        const rules = listing.rules;
        // Confined, a folder is listed through its real path (see WalkedFile.readPath).
        const listAt = confine ? real : child.abs;
        const childNode: DirNode = {
          display: child.display,
          abs: child.abs,
          real,
          parent: node,
          listing: this.limiter.run(() => this.list(listAt, child.display, rules)),
        };
        // An unhandled rejection must not escape while the node waits its turn.
        childNode.listing.catch(() => undefined);
        children.push(childNode);
      } else {
        const file: WalkedFile = {
          path: child.abs,
          displayPath: strip ? stripDotSlash(child.display) : child.display,
          explicit: false,
          stat: child.stat,
        };
        if (confine && real !== child.abs) file.readPath = real;
        children.push(file);
      }
    }
    return children;
  }

  /** ripgrep's filter for a walked entry: true to leave it out. */
  private skip(display: string, name: string, isDir: boolean, rules: DirRules, realRoot: string): boolean {
    if (this.overrides) {
      const verdict = this.overrides.match(display, isDir);
      if (verdict === "whitelist") return false;
      if (verdict === "ignore") return true;
    }
    const verdict = matchIgnoreFiles(rules, display, isDir, realRoot);
    if (verdict === "ignore") return true;
    if (verdict === "whitelist") return false;
    return !this.options.hidden && name.startsWith(".");
  }

  /** Lists a folder and reads its ignore files. */
  private async list(abs: string, display: string, parent: DirRules | undefined): Promise<Listing | undefined> {
    let raw;
    try {
      raw = await this.fs.readdir(abs);
    } catch (error) {
      this.message(`${display}: ${describeFsError(error)}`, "error");
      return undefined;
    }
    const entries = raw.slice().sort((a, b) => compareNames(a.name, b.name));
    const names = new Map(entries.map((entry) => [entry.name, entry.type]));
    const rules = await this.readRules(abs, display, names, parent, false);
    return { entries, rules };
  }

  private async readRules(
    abs: string,
    display: string,
    names: Map<string, string> | undefined,
    parent: DirRules | undefined,
    absoluteParent: boolean,
  ): Promise<DirRules> {
    const base = abs === "/" ? "" : abs;
    const read = async (name: string): Promise<IgnoreRules | undefined> => {
      if (names && !names.has(name)) return undefined;
      let bytes: Uint8Array;
      try {
        bytes = await this.fs.readFile(`${base}/${name}`);
      } catch {
        return undefined;
      }
      const { rules, errors } = parseIgnoreFile(decoder.decode(bytes));
      for (const error of errors) this.message(`${joinPath(display, name)}: ${error}`, "warning");
      return rules.isEmpty ? undefined : rules;
    };
    let gitType: string | undefined;
    if (names) gitType = names.get(".git");
    else {
      gitType = await this.fs.stat(`${base}/.git`).then(
        (s) => s.type,
        () => undefined,
      );
    }
    if (gitType === "symlink") {
      gitType = await this.fs.stat(`${base}/.git`).then(
        (s) => s.type,
        () => undefined,
      );
    }
    const hasGit = gitType !== undefined;
    const [rgignore, ignore, gitignore, exclude] = await Promise.all([
      read(".rgignore"),
      read(".ignore"),
      read(".gitignore"),
      gitType === "directory"
        ? this.fs.readFile(`${base}/.git/info/exclude`).then(
            (bytes) => {
              const { rules, errors } = parseIgnoreFile(decoder.decode(bytes));
              for (const error of errors) this.message(`${joinPath(display, ".git/info/exclude")}: ${error}`, "warning");
              return rules.isEmpty ? undefined : rules;
            },
            (error: unknown) => {
              void errorCode(error);
              return undefined;
            },
          )
        : Promise.resolve(undefined),
    ]);
    const prefix = absoluteParent ? trimSlashes(abs) : trimSlashes(stripDotSlash(display) === "." ? "" : stripDotSlash(display));
    return dirRules(parent, { prefix, absoluteParent, hasGit, rgignore, ignore, gitignore, exclude });
  }

  /** The rules of every folder above the search root, from `/` down to `dir` (cached). */
  private parentRules(dir: string, none: boolean): Promise<DirRules | undefined> {
    if (none) return Promise.resolve(undefined);
    let cached = this.parentCache.get(dir);
    if (!cached) {
      cached = (async () => {
        const above = dir === "/" ? undefined : await this.parentRules(dirnameOf(dir), false);
        return this.readRules(dir, dir, undefined, above, true);
      })();
      this.parentCache.set(dir, cached);
    }
    return cached;
  }
}

/**
 * Every file a search with these options would look at, with its size and modification time (stats
 * run ahead in parallel). Messages (loops, dangling links) go to `onMessage`; `walker.errored` tells
 * whether one was an error.
 */
export async function* walk(fs: SearchFs, options: WalkOptions, walker = new Walker(fs, options)): AsyncGenerator<WalkEntry> {
  const limiter = new Limiter(options.concurrency ?? 24);
  const follow = options.follow ?? false;
  const window: Array<{ file: WalkedFile; stat: Promise<SearchStat | undefined> }> = [];
  const statOf = (file: WalkedFile) =>
    file.stat ? Promise.resolve(file.stat) : limiter.run(() => (follow ? fs.stat(file.path) : fs.lstat(file.path))).catch(() => undefined);
  const drain = async function* (keep: number) {
    while (window.length > keep) {
      const head = window.shift()!;
      const stat = await head.stat;
      if (stat) yield { path: head.file.path, displayPath: head.file.displayPath, mtimeMs: stat.mtimeMs, size: stat.size };
    }
  };
  for await (const file of walker.files()) {
    const stat = statOf(file);
    stat.catch(() => undefined);
    window.push({ file, stat });
    yield* drain(64);
  }
  yield* drain(0);
}
