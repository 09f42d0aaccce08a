/**
 * Syntax diagnostics for JSON files, from jsonc-parser. Files that editors treat as JSON with comments
 * (tsconfig, jsconfig, .jsonc, VS Code's settings, opencode.json) may have comments and trailing commas;
 * every other .json file is strict.
 */
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import type { Diagnostic } from "./types.js";

const MESSAGES: Record<string, string> = {
  InvalidSymbol: "Invalid symbol",
  InvalidNumberFormat: "Invalid number format",
  PropertyNameExpected: "Property name expected",
  ValueExpected: "Value expected",
  ColonExpected: "Colon expected",
  CommaExpected: "Comma expected",
  CloseBraceExpected: "Closing brace expected",
  CloseBracketExpected: "Closing bracket expected",
  EndOfFileExpected: "End of file expected",
  InvalidCommentToken: "Comments are not permitted in JSON",
  UnexpectedEndOfComment: "Unexpected end of comment",
  UnexpectedEndOfString: "Unexpected end of string",
  UnexpectedEndOfNumber: "Unexpected end of number",
  InvalidUnicode: "Invalid unicode sequence in string",
  InvalidEscapeCharacter: "Invalid escape character in string",
  InvalidCharacter: "Invalid characters in string. Control characters must be escaped",
};

function allowsComments(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return (
    /^(tsconfig|jsconfig)(\..*)?\.json$/.test(name) || name.endsWith(".jsonc") || name === "opencode.json" || path.includes("/.vscode/")
  );
}

function position(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, character: Math.min(offset, text.length) - start };
}

export function jsonDiagnostics(path: string, text: string): Diagnostic[] {
  const errors: ParseError[] = [];
  const lenient = allowsComments(path);
  parse(text, errors, { disallowComments: !lenient, allowTrailingComma: lenient, allowEmptyContent: false });
  return errors.map((error) => {
    const from = position(text, error.offset);
    const to = position(text, error.offset + error.length);
    return {
      line: from.line,
      character: from.character,
      endLine: to.line,
      endCharacter: to.character,
      severity: 1 as const,
      message: MESSAGES[printParseErrorCode(error.error)] ?? "Invalid JSON",
      code: error.error,
      source: "json",
    };
  });
}
