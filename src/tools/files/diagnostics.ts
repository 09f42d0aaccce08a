/**
 * The errors a write, edit or patch leaves behind, in OpenCode's words and limits: errors only (severity
 * 1), at most 20 per file then "... and N more", each as `ERROR [line:col] message` with 1-based
 * positions; the written file first, and for write up to 5 other files.
 */
import type { Context } from "../tool.js";
import type { LspDiagnostic } from "../ports/language-service.js";
import { errorMessage } from "../../base/error-message.js";

const MAX_DIAGNOSTICS_PER_FILE = 20;
const MAX_PROJECT_DIAGNOSTICS_FILES = 5;

const SEVERITY = { 1: "ERROR", 2: "WARN", 3: "INFO", 4: "HINT" } as const;

function pretty(diagnostic: LspDiagnostic): string {
  return `${SEVERITY[diagnostic.severity]} [${diagnostic.line + 1}:${diagnostic.character + 1}] ${diagnostic.message}`;
}

/** The `<diagnostics>` block of one file's errors, or undefined when it has none. */
export function diagnosticsBlock(file: string, diagnostics: readonly LspDiagnostic[]): string | undefined {
  const errors = diagnostics.filter((d) => d.severity === 1);
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, MAX_DIAGNOSTICS_PER_FILE).map(pretty).join("\n");
  const more = errors.length > MAX_DIAGNOSTICS_PER_FILE ? `\n... and ${errors.length - MAX_DIAGNOSTICS_PER_FILE} more` : "";
  return `<diagnostics file="${file}">\n${shown}${more}\n</diagnostics>`;
}

/**
 * Touches the written files and returns every open file's diagnostics; an empty record when the session
 * has no language service or covers none of them. A failing service costs the output nothing: the write
 * already happened, so its failure is reported, not thrown.
 */
export async function diagnosticsAfterWrite(ctx: Context, paths: readonly string[]): Promise<Record<string, LspDiagnostic[]>> {
  const lsp = ctx.lsp;
  const covered = paths.filter((path) => lsp?.covers(path));
  if (!lsp || covered.length === 0) return {};
  // The first check loads the language service (seconds): the card says why the call still runs.
  ctx.metadata({ metadata: { checkingTypes: true } });
  try {
    for (const path of covered) await lsp.touchFile(path, true);
    return await lsp.diagnostics();
  } catch (error) {
    const message = errorMessage(error);
    return {
      [covered[0]!]: [
        {
          line: 0,
          character: 0,
          endLine: 0,
          endCharacter: 0,
          severity: 2,
          message: `language service failed: ${message}`,
          source: "workbench",
        },
      ],
    };
  }
}

/** The same-file block, as edit, multiedit and write append it. */
export function thisFileReport(path: string, diagnostics: Record<string, LspDiagnostic[]>): string {
  const block = diagnosticsBlock(path, diagnostics[path] ?? []);
  return block ? `\n\nLSP errors detected in this file, please fix:\n${block}` : "";
}

/** Write's report on other open files: at most five of them, each in its own block. */
export function otherFilesReport(path: string, diagnostics: Record<string, LspDiagnostic[]>): string {
  let output = "";
  let count = 0;
  for (const [file, list] of Object.entries(diagnostics)) {
    if (file === path) continue;
    const block = diagnosticsBlock(file, list);
    if (!block) continue;
    if (count >= MAX_PROJECT_DIAGNOSTICS_FILES) break;
    count++;
    output += `\n\nLSP errors detected in other files:\n${block}`;
  }
  return output;
}
