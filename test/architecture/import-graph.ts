/**
 * The import graph of src and the layer rules of docs/architecture.md as data, so the rules are checked
 * rather than remembered. Imports are read with the TypeScript parser (not a regex): static imports,
 * `export ... from`, dynamic `import()` and `import("x")` types, each marked type-only or not.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  /** Both relative to the repository, with forward slashes: `src/ui/App.tsx`. */
  from: string;
  to: string;
  /** `import type`, `export type`, all-`type` named imports, or an `import("x")` type: no code is loaded. */
  typeOnly: boolean;
}

/** Every import of a source text that names a relative module, resolved against `file`. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const allNamedTypes =
        clause !== undefined && !clause.name && named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: clause?.isTypeOnly === true || allNamedTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const allNamedTypes = named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allNamedTypes });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found
    .filter(({ specifier }) => specifier.startsWith("."))
    .map(({ specifier, typeOnly }) => ({ from: file, to: resolveSpecifier(file, specifier), typeOnly }));
}

/** `../runtime/types.js` from `src/ui/App.tsx` is `src/runtime/types.ts`; a `?raw` suffix is dropped. */
function resolveSpecifier(from: string, specifier: string): string {
  const path = normalize(join(dirname(from), specifier.replace(/\?.*$/, ""))).replaceAll("\\", "/");
  // Sources are named .js in imports (TypeScript's convention); .mjs files are real JavaScript and stay.
  return path.replace(/\.js$/, ".ts").replace(/\.jsx$/, ".tsx");
}

/** The import graph of every .ts/.tsx file under `dir` (relative to `repo`). */
export function importGraph(repo: string, dir = "src"): ImportEdge[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(repo, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(path);
    }
  };
  walk(dir);
  return files.flatMap((file) => importsOf(file, readFileSync(join(repo, file), "utf8")));
}

/** Where a file sits in the house. */
export type Layer =
  | "entry"
  | "ui"
  | "embed"
  | "cli"
  | "session"
  | "tools"
  | "workspace"
  | "runtime"
  | "runtime-backend"
  | "search"
  | "lsp"
  | "outside";

const BACKENDS = ["embedded", "node", "webcontainer"];

export function layerOf(path: string): Layer {
  const parts = path.split("/");
  if (parts[0] !== "src") return "outside";
  if (parts.length === 2) return "entry";
  const folder = parts[1]!;
  if (folder === "runtime") return parts.length > 3 && BACKENDS.includes(parts[2]!) ? "runtime-backend" : "runtime";
  if (["ui", "embed", "cli", "session", "tools", "workspace", "search", "lsp"].includes(folder)) return folder as Layer;
  return "outside";
}

/** What a layer may import: `code` loads modules; `types` only names their types (and costs nothing at run time). */
export interface Allowance {
  code: readonly Layer[];
  types: readonly Layer[];
}

/** The rules of docs/architecture.md. A layer may always import itself (backends: only their own backend). */
export const RULES: Record<Exclude<Layer, "outside">, Allowance> = {
  entry: { code: ["ui", "embed", "session", "workspace", "tools", "runtime", "runtime-backend", "search", "lsp"], types: [] },
  ui: { code: ["session", "workspace"], types: ["tools", "runtime"] },
  embed: { code: ["session", "workspace"], types: ["tools", "runtime"] },
  cli: { code: ["embed", "session", "workspace", "tools", "runtime", "runtime-backend", "search", "lsp"], types: [] },
  session: { code: ["tools", "workspace", "runtime"], types: [] },
  tools: { code: ["runtime", "search"], types: [] },
  workspace: { code: ["runtime", "runtime-backend", "lsp"], types: [] },
  runtime: { code: ["search"], types: [] },
  "runtime-backend": { code: ["runtime", "search"], types: [] },
  search: { code: [], types: [] },
  lsp: { code: [], types: [] },
};

export interface Exception {
  from: string;
  to: string;
  reason: string;
}

export interface Violation extends ImportEdge {
  rule: string;
}

/** Every import that breaks a rule, minus the listed exceptions (each must say why it is allowed). */
export function violations(edges: readonly ImportEdge[], exceptions: readonly Exception[] = [], rules = RULES): Violation[] {
  const found: Violation[] = [];
  for (const edge of edges) {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (from === "outside") continue;
    if (to === "outside") {
      found.push({ ...edge, rule: `${edge.from} imports ${edge.to}, which is outside the layers of src` });
      continue;
    }
    if (from === to) {
      if (from === "runtime-backend" && backendOf(edge.from) !== backendOf(edge.to)) {
        found.push({
          ...edge,
          rule: `the ${backendOf(edge.from)} backend imports the ${backendOf(edge.to)} backend: backends share only src/runtime`,
        });
      }
      continue;
    }
    const allowed = rules[from];
    if (allowed.code.includes(to)) continue;
    if (edge.typeOnly && allowed.types.includes(to)) continue;
    if (exceptions.some((exception) => exception.from === edge.from && exception.to === edge.to)) continue;
    const what = allowed.types.includes(to) ? `may import only types from ${to} (use "import type")` : `may not import ${to}`;
    found.push({ ...edge, rule: `${from} ${what}: ${edge.from} -> ${edge.to}` });
  }
  return found;
}

function backendOf(path: string): string {
  return path.split("/")[2]!;
}
