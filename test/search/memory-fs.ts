/**
 * A tiny in-memory SearchFs for unit tests: files, folders and symbolic links, with node's error
 * codes. It shows the search library needs nothing but the five calls of its interface.
 */
import type { SearchDirEntry, SearchFs, SearchStat } from "../../src/search/index.js";
import { normalizeAbsolute } from "../../src/search/path.js";

type Node =
  | { type: "file"; data: Uint8Array; mtimeMs: number }
  | { type: "directory"; mtimeMs: number }
  | { type: "symlink"; target: string; mtimeMs: number };

function fsError(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

export class MemoryFs implements SearchFs {
  readonly nodes = new Map<string, Node>([["/", { type: "directory", mtimeMs: 0 }]]);
  private clock = 1;
  /** Calls made, by method name. */
  readonly calls: Record<string, number> = {};

  /** Adds files (string or bytes), folders (path ending in "/") and links ({ link: target }). */
  constructor(tree: Record<string, string | Uint8Array | { link: string }> = {}) {
    for (const [path, value] of Object.entries(tree)) this.add(path, value);
  }

  add(path: string, value: string | Uint8Array | { link: string }): void {
    const full = normalizeAbsolute(path);
    this.mkdirs(full.slice(0, full.lastIndexOf("/")) || "/");
    if (path.endsWith("/")) this.mkdirs(full);
    else if (typeof value === "object" && "link" in value)
      this.nodes.set(full, { type: "symlink", target: value.link, mtimeMs: this.clock++ });
    else
      this.nodes.set(full, {
        type: "file",
        data: typeof value === "string" ? new TextEncoder().encode(value) : value,
        mtimeMs: this.clock++,
      });
  }

  private mkdirs(path: string): void {
    let at = "";
    for (const part of path.split("/").filter(Boolean)) {
      at += `/${part}`;
      if (!this.nodes.has(at)) this.nodes.set(at, { type: "directory", mtimeMs: this.clock++ });
    }
  }

  private count(name: string): void {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }

  /** Resolves every link on the way; the final one too when `follow`. */
  private resolve(path: string, follow: boolean, depth = 0): string {
    if (depth > 40) throw fsError("ELOOP", path);
    const parts = normalizeAbsolute(path).split("/").filter(Boolean);
    let at = "";
    for (let i = 0; i < parts.length; i++) {
      const next = `${at}/${parts[i]}`;
      const node = this.nodes.get(next);
      if (!node) throw fsError("ENOENT", path);
      const last = i === parts.length - 1;
      if (node.type === "symlink" && (!last || follow)) {
        const target = node.target.startsWith("/") ? node.target : `${at || ""}/${node.target}`;
        at = this.resolve(target, true, depth + 1);
      } else {
        at = next;
      }
    }
    return at || "/";
  }

  private statOf(path: string): SearchStat {
    const node = this.nodes.get(path)!;
    return { type: node.type, size: node.type === "file" ? node.data.length : 0, mtimeMs: node.mtimeMs };
  }

  async readdir(path: string): Promise<SearchDirEntry[]> {
    this.count("readdir");
    const dir = this.resolve(path, true);
    if (this.nodes.get(dir)?.type !== "directory") throw fsError("ENOTDIR", path);
    const prefix = dir === "/" ? "/" : `${dir}/`;
    const out: SearchDirEntry[] = [];
    for (const [p, node] of this.nodes) {
      if (p !== "/" && p.startsWith(prefix) && !p.slice(prefix.length).includes("/"))
        out.push({ name: p.slice(prefix.length), type: node.type });
    }
    return out.reverse();
  }

  async stat(path: string): Promise<SearchStat> {
    this.count("stat");
    return this.statOf(this.resolve(path, true));
  }

  async lstat(path: string): Promise<SearchStat> {
    this.count("lstat");
    return this.statOf(this.resolve(path, false));
  }

  async readFile(path: string): Promise<Uint8Array> {
    this.count("readFile");
    const node = this.nodes.get(this.resolve(path, true))!;
    if (node.type !== "file") throw fsError("EISDIR", path);
    return node.data;
  }

  async realpath(path: string): Promise<string> {
    this.count("realpath");
    return this.resolve(path, true);
  }
}
