/**
 * What tools may ask of a language service, and no more: OpenCode's `LSP` namespace as the tools use it
 * (touch a file, read the diagnostics, run one operation). The session hands an implementation in on the
 * context (`ctx.lsp`); tools never load TypeScript or know where it runs (a page worker, the CLI's
 * process).
 */

/** A diagnostic as a language server publishes it: 0-based line and character, severity 1 (error) to 4 (hint). */
export interface LspDiagnostic {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  severity: 1 | 2 | 3 | 4;
  message: string;
  code?: number | string;
  source: string;
}

interface LspQuery {
  operation:
    | "goToDefinition"
    | "findReferences"
    | "hover"
    | "documentSymbol"
    | "workspaceSymbol"
    | "goToImplementation"
    | "prepareCallHierarchy"
    | "incomingCalls"
    | "outgoingCalls";
  /** Absolute path. */
  path: string;
  /** 0-based. */
  line: number;
  character: number;
}

export interface LanguageService {
  /** Whether any diagnostics exist for files like this one (by extension). */
  covers(path: string): boolean;
  /** Whether the lsp tool's operations work on this file (a script, not a JSON file). */
  answers(path: string): boolean;
  /**
   * The file changed or is being looked at: read it again and keep it open, so `diagnostics()` includes
   * it. `edited` waits until its diagnostics are ready.
   */
  touchFile(path: string, edited: boolean): Promise<void>;
  /** The diagnostics of every open file, by absolute path. */
  diagnostics(): Promise<Record<string, LspDiagnostic[]>>;
  /** One operation; LSP-shaped result, empty array or null when nothing is found. */
  query(query: LspQuery): Promise<unknown>;
}
