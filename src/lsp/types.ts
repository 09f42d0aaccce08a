/**
 * What the language service speaks: LSP-shaped results (0-based positions, as a language server sends
 * them), diagnostics, and the loader through which it reaches the workspace's files. Plain data only, so
 * every value crosses a worker boundary unchanged.
 */

export type Severity = 1 | 2 | 3 | 4;

/** One diagnostic; line and character are 0-based (LSP), the end likewise. */
export interface Diagnostic {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  severity: Severity;
  message: string;
  code?: number | string;
  source: string;
}

export const OPERATIONS = [
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "prepareCallHierarchy",
  "incomingCalls",
  "outgoingCalls",
] as const;

type Operation = (typeof OPERATIONS)[number];

export interface Query {
  operation: Operation;
  path: string;
  /** 0-based, as the protocol has them (the tool converts from the model's 1-based ones). */
  line: number;
  character: number;
}

export interface Listing {
  files: string[];
  dirs: string[];
}

/**
 * How the service reaches files it does not have yet. Absent files and folders are `null`; paths outside
 * the workspace are answered `null` too, so a project can never read beyond it.
 */
export interface Loader {
  read(paths: string[]): Promise<Record<string, string | null>>;
  list(dirs: string[]): Promise<Record<string, Listing | null>>;
  /** TypeScript's own `lib.*.d.ts` by file name; undefined when there is no such lib. */
  lib(name: string): Promise<string | undefined>;
}

/** Extensions the TypeScript service covers. */
const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"] as const;

export function isScript(path: string): boolean {
  return SCRIPT_EXTENSIONS.some((ext) => path.endsWith(ext));
}

export function isJson(path: string): boolean {
  return path.endsWith(".json");
}

/** Whether diagnostics exist for this file type (scripts by TypeScript, JSON by its parser). */
export function isCovered(path: string): boolean {
  return isScript(path) || isJson(path);
}
