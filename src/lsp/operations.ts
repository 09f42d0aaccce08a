/**
 * The lsp tool's operations on TypeScript's language service, answered in the shapes a language server
 * sends (LSP 3.17: Location, Hover, DocumentSymbol, SymbolInformation, CallHierarchyItem, with 0-based
 * ranges and file:// URIs), since that is what OpenCode hands the model.
 */
import ts from "typescript";
import type { Query } from "./types.js";

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
  end: Position;
}
interface Location {
  uri: string;
  range: Range;
}

function fileUri(path: string): string {
  return `file://${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** LSP SymbolKind for TypeScript's element kinds. */
function symbolKind(kind: string): number {
  const E = ts.ScriptElementKind;
  switch (kind) {
    case E.moduleElement:
      return 2;
    case E.classElement:
    case E.localClassElement:
      return 5;
    case E.memberFunctionElement:
      return 6;
    case E.memberVariableElement:
    case E.memberGetAccessorElement:
    case E.memberSetAccessorElement:
      return 7;
    case E.constructorImplementationElement:
    case E.constructSignatureElement:
      return 9;
    case E.enumElement:
      return 10;
    case E.interfaceElement:
      return 11;
    case E.functionElement:
    case E.localFunctionElement:
      return 12;
    case E.variableElement:
    case E.localVariableElement:
    case E.letElement:
    case E.parameterElement:
      return 13;
    case E.constElement:
      return 14;
    case E.enumMemberElement:
      return 22;
    case E.typeParameterElement:
      return 26;
    case E.typeElement:
    case E.alias:
      return 26;
    case E.scriptElement:
      return 1;
    default:
      return 13;
  }
}

class Positions {
  constructor(private readonly program: ts.Program) {}

  file(path: string): ts.SourceFile | undefined {
    return this.program.getSourceFile(path);
  }

  offset(path: string, at: Position): number {
    const file = this.file(path);
    if (!file) throw new Error(`File not found: ${path}`);
    const lines = file.getLineStarts();
    if (at.line >= lines.length) throw new Error(`Line ${at.line + 1} is past the end of ${path} (${lines.length} lines).`);
    const lineEnd = at.line + 1 < lines.length ? lines[at.line + 1]! : file.text.length;
    return Math.min(lines[at.line]! + at.character, lineEnd);
  }

  range(path: string, span: ts.TextSpan): Range {
    const file = this.file(path);
    if (!file) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return { start: file.getLineAndCharacterOfPosition(span.start), end: file.getLineAndCharacterOfPosition(span.start + span.length) };
  }

  location(path: string, span: ts.TextSpan): Location {
    return { uri: fileUri(path), range: this.range(path, span) };
  }
}

function documentSymbols(tree: ts.NavigationTree, path: string, at: Positions): unknown[] {
  // Imports are aliases of symbols declared elsewhere: editors leave them out of a file's outline.
  return (tree.childItems ?? [])
    .filter((item) => item.kind !== ts.ScriptElementKind.alias)
    .map((item) => {
      const span = item.spans[0]!;
      const name = item.nameSpan ?? span;
      return {
        name: item.text,
        kind: symbolKind(item.kind),
        ...(item.kindModifiers ? { detail: item.kindModifiers } : {}),
        range: at.range(path, span),
        selectionRange: at.range(path, name),
        children: documentSymbols(item, path, at),
      };
    });
}

function callItem(item: ts.CallHierarchyItem, at: Positions): unknown {
  return {
    name: item.name,
    kind: symbolKind(item.kind),
    ...(item.containerName ? { detail: item.containerName } : {}),
    uri: fileUri(item.file),
    range: at.range(item.file, item.span),
    selectionRange: at.range(item.file, item.selectionSpan),
  };
}

function asArray<T>(value: T | readonly T[] | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

/** The identifier under the position: the query of workspaceSymbol, which the tool's parameters lack. */
function wordAt(text: string, offset: number): string {
  const isWord = (c: string) => /[\p{L}\p{N}_$]/u.test(c);
  let start = offset;
  let end = offset;
  while (start > 0 && isWord(text[start - 1]!)) start--;
  while (end < text.length && isWord(text[end]!)) end++;
  return text.slice(start, end);
}

/** Runs one operation; an empty array (or null) means nothing was found. */
export function runOperation(service: ts.LanguageService, query: Query): unknown {
  const program = service.getProgram();
  if (!program) return [];
  const at = new Positions(program);
  const { path } = query;
  if (!at.file(path)) throw new Error(`File not found: ${path}`);
  const offset = at.offset(path, query);
  switch (query.operation) {
    case "goToDefinition":
      return (service.getDefinitionAtPosition(path, offset) ?? []).map((d) => at.location(d.fileName, d.textSpan));
    case "goToImplementation":
      return (service.getImplementationAtPosition(path, offset) ?? []).map((d) => at.location(d.fileName, d.textSpan));
    case "findReferences":
      return (service.getReferencesAtPosition(path, offset) ?? []).map((r) => at.location(r.fileName, r.textSpan));
    case "hover": {
      const info = service.getQuickInfoAtPosition(path, offset);
      if (!info) return null;
      const signature = ts.displayPartsToString(info.displayParts);
      const docs = ts.displayPartsToString(info.documentation);
      const tags = (info.tags ?? []).map((tag) => `*@${tag.name}*${tag.text ? ` ${ts.displayPartsToString(tag.text)}` : ""}`);
      const value = [`\`\`\`typescript\n${signature}\n\`\`\``, ...(docs ? [docs] : []), ...tags].join("\n\n");
      return { contents: { kind: "markdown", value }, range: at.range(path, info.textSpan) };
    }
    case "documentSymbol":
      return documentSymbols(service.getNavigationTree(path), path, at);
    case "workspaceSymbol": {
      const word = wordAt(at.file(path)!.text, offset);
      return service.getNavigateToItems(word, 100, undefined, true).map((item) => ({
        name: item.name,
        kind: symbolKind(item.kind),
        ...(item.containerName ? { containerName: item.containerName } : {}),
        location: at.location(item.fileName, item.textSpan),
      }));
    }
    case "prepareCallHierarchy":
      return asArray(service.prepareCallHierarchy(path, offset)).map((item) => callItem(item, at));
    case "incomingCalls":
      return service.provideCallHierarchyIncomingCalls(path, offset).map((call) => ({
        from: callItem(call.from, at),
        fromRanges: call.fromSpans.map((span) => at.range(call.from.file, span)),
      }));
    case "outgoingCalls":
      return service.provideCallHierarchyOutgoingCalls(path, offset).map((call) => ({
        to: callItem(call.to, at),
        fromRanges: call.fromSpans.map((span) => at.range(path, span)),
      }));
  }
}
