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
  | "page"
  | "cli"
  | "session"
  | "tools"
  | "workspace"
  | "runtime"
  | "runtime-backend"
  | "search"
  | "lsp"
  | "base"
  | "outside";

const BACKENDS = ["embedded", "node", "webcontainer"];

export function layerOf(path: string): Layer {
  const parts = path.split("/");
  if (parts[0] !== "src") return "outside";
  if (parts.length === 2) return "entry";
  const folder = parts[1]!;
  if (folder === "runtime") return parts.length > 3 && BACKENDS.includes(parts[2]!) ? "runtime-backend" : "runtime";
  if (["ui", "embed", "page", "cli", "session", "tools", "workspace", "search", "lsp", "base"].includes(folder)) return folder as Layer;
  return "outside";
}

/** What a layer may import: `code` loads modules; `types` only names their types (and costs nothing at run time). */
export interface Allowance {
  code: readonly Layer[];
  types: readonly Layer[];
}

/** The rules of docs/architecture.md. A layer may always import itself (backends: only their own backend). */
export const RULES: Record<Exclude<Layer, "outside">, Allowance> = {
  entry: {
    code: ["ui", "embed", "page", "session", "workspace", "tools", "runtime", "runtime-backend", "search", "lsp", "base"],
    types: [],
  },
  ui: { code: ["page", "session", "workspace", "base"], types: ["tools", "runtime"] },
  embed: { code: ["page", "session", "workspace", "base"], types: ["tools", "runtime"] },
  page: { code: ["session", "workspace", "tools", "runtime", "base"], types: [] },
  cli: { code: ["embed", "session", "workspace", "tools", "runtime", "runtime-backend", "search", "lsp", "base"], types: [] },
  session: { code: ["tools", "workspace", "runtime", "base"], types: [] },
  tools: { code: ["runtime", "search", "base"], types: [] },
  workspace: { code: ["runtime", "runtime-backend", "lsp", "search", "base"], types: [] },
  runtime: { code: ["search", "base"], types: [] },
  "runtime-backend": { code: ["runtime", "search", "base"], types: [] },
  search: { code: ["base"], types: [] },
  lsp: { code: ["base"], types: [] },
  base: { code: [], types: [] },
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

/**
 * The floors of src/session, bottom first. A file on a floor imports only its own floor and the floors
 * below it, so the saved record never knows of the loop that writes it, nor the loop of the chat that
 * drives it. Every file of src/session sits on a floor.
 */
export const SESSION_FLOORS = ["record", "provider", "config", "agent", "host", "loop", "chat"] as const;

/** The floor of a file in src/session, `undefined` for a file on none, `null` outside src/session. */
export function floorOf(path: string): string | undefined | null {
  const parts = path.split("/");
  if (parts[0] !== "src" || parts[1] !== "session") return null;
  const floor = parts[2]!;
  return parts.length > 3 && (SESSION_FLOORS as readonly string[]).includes(floor) ? floor : undefined;
}

/** Imports within src/session that go up a floor, and files of src/session on no floor. */
export function floorViolations(edges: readonly ImportEdge[]): Violation[] {
  const found: Violation[] = [];
  const seen = new Set<string>();
  for (const edge of edges) {
    const from = floorOf(edge.from);
    if (from === null) continue;
    if (from === undefined) {
      if (!seen.has(edge.from)) found.push({ ...edge, rule: `${edge.from} is on no floor of src/session (${SESSION_FLOORS.join(", ")})` });
      seen.add(edge.from);
      continue;
    }
    const to = floorOf(edge.to);
    if (to === null || to === undefined) continue;
    if (SESSION_FLOORS.indexOf(to as never) > SESSION_FLOORS.indexOf(from as never)) {
      found.push({ ...edge, rule: `the ${from} floor imports the ${to} floor above it: ${edge.from} -> ${edge.to}` });
    }
  }
  return found;
}

/**
 * Every import circle, type-only imports included (a circle closed by a type still means a type lives
 * in the file that uses it rather than the one that owns it). Each circle is listed once, as the files of
 * one strongly connected component, sorted.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    const list = next.get(edge.from) ?? [];
    list.push(edge.to);
    next.set(edge.from, list);
  }
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; child: number }> = [{ node: root, child: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node) ?? [];
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) cycles.push(component.sort());
      }
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
