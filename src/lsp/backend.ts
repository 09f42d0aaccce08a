/**
 * Where a project runs, behind one shape: in this thread (the CLI, tests) or in a worker (the page). The
 * workspace side supplies the files; the backend brings TypeScript and its lib files.
 */
import type { Diagnostic, Listing, Query } from "./types.js";

/** The workspace's files as the host reads them (absent: null). */
export interface WorkspaceFiles {
  read(paths: string[]): Promise<Record<string, string | null>>;
  list(dirs: string[]): Promise<Record<string, Listing | null>>;
}

export interface LanguageBackend {
  update(path: string, text: string | null): Promise<void>;
  /** The tree changed in ways nobody listed: list and read the workspace again. */
  refresh(): Promise<void>;
  diagnostics(paths: string[]): Promise<Record<string, Diagnostic[]>>;
  query(query: Query): Promise<unknown>;
  dispose(): void;
}

export type BackendFactory = (root: string, files: WorkspaceFiles) => Promise<LanguageBackend>;
