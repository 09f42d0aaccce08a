/**
 * The files the TypeScript host sees, kept in memory, because its host interface is synchronous while the
 * workspace is reached asynchronously (through a runtime, or a worker's message port). What the compiler
 * asks for and is not known yet is recorded as a miss; the project fetches the misses and builds again, so
 * node_modules are read only as far as module resolution actually goes.
 */
import type { Listing } from "./types.js";

export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function join(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

export class VirtualFs {
  private readonly files = new Map<string, string>();
  private readonly versions = new Map<string, number>();
  private readonly absent = new Set<string>();
  private readonly listings = new Map<string, Listing | null>();
  readonly missingFiles = new Set<string>();
  readonly missingDirs = new Set<string>();

  constructor(private readonly root: string) {}

  inside(path: string): boolean {
    return path === this.root || path.startsWith(this.root === "/" ? "/" : `${this.root}/`);
  }

  setFile(path: string, text: string | null): void {
    if (text === null) {
      if (this.files.delete(path)) this.bump(path);
      this.absent.add(path);
      return;
    }
    if (this.files.get(path) === text) return;
    this.files.set(path, text);
    this.absent.delete(path);
    this.bump(path);
  }

  /** Drops a file's text without recording it absent: it is fetched again when next asked for. */
  forget(path: string): void {
    if (this.files.delete(path)) this.bump(path);
  }

  private bump(path: string): void {
    this.versions.set(path, (this.versions.get(path) ?? 0) + 1);
  }

  /** A file the workspace created or deleted changes its folder's listing too. */
  noteInListing(path: string, present: boolean): void {
    const listing = this.listings.get(dirname(path));
    if (!listing) return;
    const name = basename(path);
    const has = listing.files.includes(name);
    if (present && !has) listing.files.push(name);
    if (!present && has) listing.files.splice(listing.files.indexOf(name), 1);
  }

  setListing(dir: string, listing: Listing | null): void {
    this.listings.set(dir, listing);
  }

  hasListing(dir: string): boolean {
    return this.listings.has(dir);
  }

  version(path: string): string {
    return String(this.versions.get(path) ?? 0);
  }

  known(path: string): string | undefined {
    return this.files.get(path);
  }

  allFiles(): string[] {
    return [...this.files.keys()];
  }

  /**
   * Whether a folder on the way to `path` is known to be missing: some ancestor's listing lacks the next
   * folder down (node_modules in a workspace without one answers every probe beneath it).
   */
  private ancestorMissing(path: string): boolean {
    let child = dirname(path);
    while (child !== "/" && this.inside(child) && child !== this.root) {
      const parent = dirname(child);
      const listing = this.listings.get(parent);
      if (listing === null) return true;
      if (listing) return !listing.dirs.includes(basename(child));
      child = parent;
    }
    return false;
  }

  /** Answers from what is known: the file, its recorded absence, or its folders' listings. */
  private state(path: string): "file" | "absent" | "unknown" {
    if (this.files.has(path)) return "file";
    if (this.absent.has(path)) return "absent";
    if (!this.inside(path)) return "absent";
    const listing = this.listings.get(dirname(path));
    if (listing === null) return "absent";
    if (listing && !listing.files.includes(basename(path))) return "absent";
    if (!listing && this.ancestorMissing(path)) return "absent";
    return "unknown";
  }

  fileExists(path: string): boolean {
    const state = this.state(path);
    if (state === "unknown") {
      this.missingFiles.add(path);
      // Present in its folder's listing: it exists, its text comes next round.
      const listing = this.listings.get(dirname(path));
      return listing !== undefined && listing !== null;
    }
    return state === "file";
  }

  readFile(path: string): string | undefined {
    if (this.state(path) === "unknown") this.missingFiles.add(path);
    return this.files.get(path);
  }

  directoryExists(dir: string): boolean {
    if (this.listings.has(dir)) return this.listings.get(dir) !== null;
    if (!this.inside(dir)) return false;
    const parent = this.listings.get(dirname(dir));
    if (parent === null) return false;
    if (parent && !parent.dirs.includes(basename(dir))) return false;
    if (!parent && this.ancestorMissing(dir)) return false;
    this.missingDirs.add(dir);
    return parent !== undefined;
  }

  getDirectories(dir: string): string[] {
    const listing = this.listings.get(dir);
    if (listing === undefined && this.inside(dir) && !this.ancestorMissing(join(dir, "x"))) this.missingDirs.add(dir);
    return listing ? [...listing.dirs] : [];
  }

  /** For TypeScript's include/exclude matching: a folder's entries by name. */
  entries(dir: string): { files: readonly string[]; directories: readonly string[] } {
    const listing = this.listings.get(dir);
    return { files: listing?.files ?? [], directories: listing?.dirs ?? [] };
  }

  /**
   * Forgets what is known of the folders and of absent files (kept: file texts, so unchanged files keep
   * their versions), for when something changed the tree without saying what (a shell command).
   */
  forgetStructure(): void {
    this.listings.clear();
    this.absent.clear();
  }

  takeMisses(): { files: string[]; dirs: string[] } {
    const files = [...this.missingFiles];
    const dirs = [...this.missingDirs];
    this.missingFiles.clear();
    this.missingDirs.clear();
    return { files, dirs };
  }
}
