/**
 * Where the workspace's symbolic links are, so the file host can follow them itself. ZenFS follows a
 * link by recursing with no limit: `stat` of a link to itself (or a two-link cycle) never returns and
 * eats memory until the tab dies. A path with no known link on it is handed to ZenFS as it is (the
 * common case, at the cost of a few Set lookups); a path through a link is resolved here, a component
 * at a time, and more than MAX_HOPS links on the way is ELOOP, as on Linux.
 *
 * The index is exact as long as every change passes through the host: it starts from a scan of the
 * whole file system (links persisted in IndexedDB from an earlier session) and follows each symlink,
 * rm and rename after that. Keys are real paths (no link on the way).
 */
import { RuntimeError } from "../errors.js";

const MAX_HOPS = 40;

interface LinkFs {
  readdir(
    path: string,
    options: { withFileTypes: true },
  ): Promise<Array<{ name: string; isDirectory(): boolean; isSymbolicLink(): boolean }>>;
  readlink(path: string): Promise<unknown>;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

export class LinkIndex {
  private readonly links = new Set<string>();
  /** Settles when the scan of what was already stored is done. */
  readonly ready: Promise<void>;

  constructor(private readonly fs: LinkFs) {
    this.ready = this.scan("/").catch(() => undefined);
  }

  private async scan(dir: string): Promise<void> {
    const entries = await this.fs.readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map((entry) => {
        const path = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`;
        if (entry.isSymbolicLink()) this.links.add(path);
        else if (entry.isDirectory()) return this.scan(path).catch(() => undefined);
        return undefined;
      }),
    );
  }

  /** Does following `path` (absolute, normalised) pass through a known link? */
  involves(path: string): boolean {
    if (this.links.size === 0) return false;
    for (let at = path.indexOf("/", 1); ; at = path.indexOf("/", at + 1)) {
      if (this.links.has(at < 0 ? path : path.slice(0, at))) return true;
      if (at < 0) return false;
    }
  }

  /**
   * The real path of `path`, its links followed (the last component's only with `followLast`).
   * Components that do not exist are kept as they are, so the caller's operation reports ENOENT.
   */
  async resolve(path: string, followLast: boolean, syscall: string): Promise<string> {
    if (!this.involves(path)) return path;
    const pending = path.split("/").filter(Boolean).reverse();
    let resolved = "/";
    let hops = 0;
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (name === ".") continue;
      if (name === "..") {
        resolved = parentOf(resolved);
        continue;
      }
      const next = resolved === "/" ? `/${name}` : `${resolved}/${name}`;
      if (!this.links.has(next) || (pending.length === 0 && !followLast)) {
        resolved = next;
        continue;
      }
      if (++hops > MAX_HOPS) throw new RuntimeError("ELOOP", syscall, path);
      const target = String(await this.fs.readlink(next));
      if (target.startsWith("/")) resolved = "/";
      for (const part of target.split("/").filter(Boolean).reverse()) pending.push(part);
    }
    return resolved;
  }

  /** A link was made at `path` (its parent already resolved). */
  added(path: string): void {
    this.links.add(path);
  }

  /** `path` and everything under it is gone. */
  removed(path: string): void {
    const under = `${path}/`;
    for (const link of this.links) if (link === path || link.startsWith(under)) this.links.delete(link);
  }

  /** `from` (and everything under it) is now at `to`. */
  moved(from: string, to: string): void {
    this.removed(to);
    const under = `${from}/`;
    for (const link of [...this.links]) {
      if (link !== from && !link.startsWith(under)) continue;
      this.links.delete(link);
      this.links.add(to + link.slice(from.length));
    }
  }
}
