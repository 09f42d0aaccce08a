/**
 * Node's module system over the program's files: CommonJS `require` and ES modules (turned into CommonJS by
 * sucrase, which also strips TypeScript, keeping line numbers), resolved as Node resolves them: relative
 * paths, extensions and index files for `require`, exact paths for `import`, `node_modules` up the tree,
 * package.json `main`, `exports`, `imports` and `type`, with Node's error codes.
 */
import { transform } from "sucrase";
import type { BoundContext } from "@zenfs/core";
import { dirname, isAbsolute, join, resolve as resolvePath } from "./path.js";
import { nodeError } from "./errors.js";
import { registerCompiled } from "./stack.js";

type Fs = BoundContext["fs"];
type Format = "commonjs" | "module" | "json";
type ResolveKind = "require" | "import";

interface PackageJson {
  name?: string;
  main?: string;
  type?: string;
  exports?: unknown;
  imports?: unknown;
}

export interface ModuleRecord {
  id: string;
  filename: string;
  path: string;
  exports: unknown;
  loaded: boolean;
  children: ModuleRecord[];
  paths: string[];
  parent: ModuleRecord | null | undefined;
  require: RequireFunction;
  /** Set while an ES module with top-level await is still running. */
  evaluation?: Promise<void>;
  format?: Format;
}

export interface RequireFunction {
  (specifier: string): unknown;
  resolve: ((specifier: string, options?: { paths?: string[] }) => string) & { paths(specifier: string): string[] | null };
  cache: Record<string, ModuleRecord>;
  main: ModuleRecord | undefined;
  extensions: Record<string, unknown>;
}

export interface ModuleSystemOptions {
  fs: Fs;
  /** A core module's exports, or undefined when Node has no module of that name. */
  builtin(name: string): unknown;
  isBuiltin(name: string): boolean;
  /** Compiles a module's code (wrapped in a function expression) so stack lines name `filename`. */
  compile(code: string, filename: string): unknown;
}

const JS_EXTENSIONS = [".js", ".json", ".node"];
const TS_FILE = /\.[cm]?ts$/;
const ESM_SYNTAX =
  /^\s*(?:import\s*[\w{*"'$]|export\s+(?:\{|\*|default\b|const\b|let\b|var\b|function\b|async\b|class\b|type\b|interface\b|enum\b))/m;
const DYNAMIC_IMPORT = /(?<![\w$.])import\s*\(/g;
const IMPORT_META = /(?<![\w$.])import\s*\.\s*meta\b/g;
const WRAPPER_ARGS = "exports, require, module, __filename, __dirname, __importMeta, __dynamicImport";

function fileUrl(path: string): string {
  return `file://${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`;
}

export class ModuleSystem {
  readonly cache: Record<string, ModuleRecord> = Object.create(null);
  main: ModuleRecord | undefined;
  private readonly packages = new Map<string, PackageJson | null>();

  constructor(private readonly options: ModuleSystemOptions) {}

  private get fs(): Fs {
    return this.options.fs;
  }

  private statKind(path: string): "file" | "directory" | undefined {
    try {
      const stat = this.fs.statSync(path);
      return stat.isDirectory() ? "directory" : "file";
    } catch {
      return undefined;
    }
  }

  private realpath(path: string): string {
    try {
      return this.fs.realpathSync(path);
    } catch {
      return path;
    }
  }

  readPackage(dir: string): PackageJson | null {
    const path = join(dir, "package.json");
    if (this.packages.has(path)) return this.packages.get(path)!;
    let value: PackageJson | null = null;
    if (this.statKind(path) === "file") {
      const text = this.fs.readFileSync(path, "utf8");
      try {
        value = JSON.parse(text) as PackageJson;
      } catch (error) {
        throw nodeError("ERR_INVALID_PACKAGE_CONFIG", `Invalid package config ${path}.\n${(error as Error).message}`);
      }
    }
    this.packages.set(path, value);
    return value;
  }

  /** The nearest package.json above a file: its folder and contents. */
  private packageScope(file: string): { dir: string; pkg: PackageJson } | undefined {
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      if (dir.endsWith("/node_modules")) return undefined;
      const pkg = this.readPackage(dir);
      if (pkg) return { dir, pkg };
      if (dir === "/") return undefined;
    }
  }

  formatOf(filename: string, source?: string): Format {
    if (filename.endsWith(".json")) return "json";
    if (/\.m[jt]s$/.test(filename)) return "module";
    if (/\.c[jt]s$/.test(filename)) return "commonjs";
    const type = this.packageScope(filename)?.pkg.type;
    if (type === "module") return "module";
    if (type === "commonjs") return "commonjs";
    // Node 22+ detects module syntax in a file no package.json types.
    if (source !== undefined && ESM_SYNTAX.test(source)) return "module";
    return "commonjs";
  }

  // ---- resolution ----------------------------------------------------------------------------------

  private loadAsFile(path: string): string | undefined {
    if (this.statKind(path) === "file") return path;
    for (const extension of JS_EXTENSIONS) if (this.statKind(path + extension) === "file") return path + extension;
    return undefined;
  }

  private loadIndex(dir: string): string | undefined {
    for (const extension of JS_EXTENSIONS) if (this.statKind(`${dir}/index${extension}`) === "file") return `${dir}/index${extension}`;
    return undefined;
  }

  private loadAsDirectory(dir: string): string | undefined {
    if (this.statKind(dir) !== "directory") return undefined;
    const main = this.readPackage(dir)?.main;
    if (typeof main === "string" && main !== "") {
      const path = resolvePath(dir, main);
      const found = this.loadAsFile(path) ?? this.loadIndex(path);
      if (found) return found;
    }
    return this.loadIndex(dir);
  }

  private conditions(kind: ResolveKind): string[] {
    return ["node", kind, "default"];
  }

  private resolveTarget(pkgDir: string, target: unknown, match: string | undefined, conditions: string[]): string | null | undefined {
    if (typeof target === "string") {
      if (!target.startsWith("./")) return undefined;
      return join(pkgDir, match === undefined ? target : target.replaceAll("*", match));
    }
    if (Array.isArray(target)) {
      for (const item of target) {
        const found = this.resolveTarget(pkgDir, item, match, conditions);
        if (found) return found;
      }
      return undefined;
    }
    if (target && typeof target === "object") {
      for (const [key, value] of Object.entries(target)) {
        if (key !== "default" && !conditions.includes(key)) continue;
        const found = this.resolveTarget(pkgDir, value, match, conditions);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    return target === null ? null : undefined;
  }

  /** A subpath (".", "./x", "#x") looked up in an exports or imports map. */
  private resolveMap(pkgDir: string, map: Record<string, unknown>, subpath: string, conditions: string[]): string | null | undefined {
    if (Object.hasOwn(map, subpath) && !subpath.includes("*")) return this.resolveTarget(pkgDir, map[subpath], undefined, conditions);
    let best: { key: string; match: string } | undefined;
    for (const key of Object.keys(map)) {
      const star = key.indexOf("*");
      if (star < 0) continue;
      const prefix = key.slice(0, star);
      const suffix = key.slice(star + 1);
      if (subpath.startsWith(prefix) && subpath.length >= key.length && subpath.endsWith(suffix)) {
        if (!best || prefix.length > best.key.indexOf("*"))
          best = { key, match: subpath.slice(prefix.length, subpath.length - suffix.length) };
      }
    }
    return best ? this.resolveTarget(pkgDir, map[best.key], best.match, conditions) : undefined;
  }

  private resolveExports(pkgDir: string, exports: unknown, subpath: string, conditions: string[]): string {
    const isConditions =
      typeof exports === "string" ||
      Array.isArray(exports) ||
      (exports !== null && typeof exports === "object" && Object.keys(exports).every((key) => !key.startsWith(".")));
    const map = (isConditions ? { ".": exports } : exports) as Record<string, unknown>;
    const found = this.resolveMap(pkgDir, map, subpath, conditions);
    if (found) return found;
    const where = join(pkgDir, "package.json");
    throw nodeError(
      "ERR_PACKAGE_PATH_NOT_EXPORTED",
      subpath === "." ? `No "exports" main defined in ${where}` : `Package subpath '${subpath}' is not defined by "exports" in ${where}`,
    );
  }

  private nodeModulesPaths(from: string): string[] {
    const paths: string[] = [];
    // Only an absolute path climbs to "/"; anything else has no node_modules above it.
    for (let dir = from; dir.startsWith("/"); dir = dirname(dir)) {
      if (!dir.endsWith("/node_modules")) paths.push(dir === "/" ? "/node_modules" : `${dir}/node_modules`);
      if (dir === "/") break;
    }
    return paths;
  }

  private notFound(specifier: string, parent: string | undefined, kind: ResolveKind, requireStack: string[]): Error {
    if (kind === "import") {
      const from = parent ?? "the entry point";
      const bare = !/^(\.{1,2}(\/|$)|\/|file:)/.test(specifier);
      const name = bare
        ? specifier
            .split("/")
            .slice(0, specifier.startsWith("@") ? 2 : 1)
            .join("/")
        : specifier;
      const target = bare ? name : resolvePath(parent ? dirname(parent) : this.cwd(), specifier);
      return nodeError("ERR_MODULE_NOT_FOUND", `Cannot find ${bare ? "package" : "module"} '${target}' imported from ${from}`);
    }
    const stack = requireStack.length > 0 ? `\nRequire stack:\n- ${requireStack.join("\n- ")}` : "";
    const error = nodeError("MODULE_NOT_FOUND", `Cannot find module '${specifier}'${stack}`);
    (error as unknown as { requireStack: string[] }).requireStack = requireStack;
    return error;
  }

  cwd: () => string = () => "/";

  /** Where `specifier` leads from `parent` (a file, or undefined for the working directory): a file, or `node:<name>`. */
  resolve(specifier: string, parent: string | undefined, kind: ResolveKind, requireStack: string[] = [], paths?: string[]): string {
    if (specifier.startsWith("node:")) {
      if (this.options.isBuiltin(specifier)) return specifier;
      throw nodeError("ERR_UNKNOWN_BUILTIN_MODULE", `No such built-in module: ${specifier}`);
    }
    if (specifier !== "test" && this.options.isBuiltin(specifier)) return `node:${specifier}`;
    const base = parent ? dirname(parent) : this.cwd();
    const conditions = this.conditions(kind);
    if (specifier.startsWith("file:")) specifier = decodeURIComponent(new URL(specifier).pathname);
    if (specifier.startsWith("#")) {
      const scope = parent ? this.packageScope(parent) : undefined;
      const imports = scope?.pkg.imports;
      const found =
        scope && imports && typeof imports === "object"
          ? this.resolveMap(scope.dir, imports as Record<string, unknown>, specifier, conditions)
          : undefined;
      if (!found) {
        throw nodeError(
          "ERR_PACKAGE_IMPORT_NOT_DEFINED",
          `Package import specifier "${specifier}" is not defined${scope ? ` in package ${join(scope.dir, "package.json")}` : ""} imported from ${parent ?? base}`,
        );
      }
      return this.finish(found, specifier, parent, kind, requireStack);
    }
    if (/^(\.{1,2}(\/|$)|\/)/.test(specifier) || specifier === "." || specifier === "..") {
      const roots = paths && kind === "require" ? paths : [base];
      for (const root of roots) {
        const path = resolvePath(root, specifier);
        if (kind === "import") return this.finish(path, specifier, parent, kind, requireStack);
        const found = this.loadAsFile(path) ?? this.loadAsDirectory(path);
        if (found) return this.realpath(found);
      }
      throw this.notFound(specifier, parent, kind, requireStack);
    }
    // A bare name: a package in node_modules up the tree, then a path inside it.
    const parts = specifier.split("/");
    const nameLength = specifier.startsWith("@") ? 2 : 1;
    const name = parts.slice(0, nameLength).join("/");
    const subpath = parts.length > nameLength ? `./${parts.slice(nameLength).join("/")}` : ".";
    const dirs = paths ? paths.flatMap((path) => this.nodeModulesPaths(path)) : this.nodeModulesPaths(base);
    for (const dir of dirs) {
      const pkgDir = `${dir}/${name}`;
      if (this.statKind(pkgDir) !== "directory") continue;
      const pkg = this.readPackage(pkgDir);
      if (pkg && pkg.exports !== undefined && pkg.exports !== null) {
        return this.finish(this.resolveExports(pkgDir, pkg.exports, subpath, conditions), specifier, parent, kind, requireStack);
      }
      const path = subpath === "." ? pkgDir : join(pkgDir, subpath);
      const found =
        kind === "require" || subpath === "."
          ? (this.loadAsFile(path) ?? this.loadAsDirectory(path))
          : this.statKind(path) === "file"
            ? path
            : undefined;
      if (found) return this.realpath(found);
      if (kind === "import") throw nodeError("ERR_MODULE_NOT_FOUND", `Cannot find module '${path}' imported from ${parent ?? base}`);
    }
    throw this.notFound(specifier, parent, kind, requireStack);
  }

  /** An exact path (what `import` and `exports` targets need): it must be a file. */
  private finish(path: string, specifier: string, parent: string | undefined, kind: ResolveKind, requireStack: string[]): string {
    const stat = this.statKind(path);
    if (stat === "file") return this.realpath(path);
    if (kind === "require") {
      const found = this.loadAsFile(path) ?? this.loadAsDirectory(path);
      if (found) return this.realpath(found);
      throw this.notFound(specifier, parent, kind, requireStack);
    }
    if (stat === "directory") {
      throw nodeError(
        "ERR_UNSUPPORTED_DIR_IMPORT",
        `Directory import '${path}' is not supported resolving ES modules imported from ${parent ?? this.cwd()}`,
      );
    }
    throw nodeError("ERR_MODULE_NOT_FOUND", `Cannot find module '${path}' imported from ${parent ?? this.cwd()}`);
  }

  // ---- loading -------------------------------------------------------------------------------------

  private newModule(filename: string, parent: ModuleRecord | undefined): ModuleRecord {
    const module = {
      id: filename,
      filename,
      path: dirname(filename),
      exports: {},
      loaded: false,
      children: [],
      paths: this.nodeModulesPaths(dirname(filename)),
      parent,
    } as unknown as ModuleRecord;
    module.require = this.makeRequire(module);
    return module;
  }

  private requireStackOf(module: ModuleRecord | undefined): string[] {
    const stack: string[] = [];
    for (let at = module; at; at = at.parent ?? undefined) stack.push(at.filename);
    return stack;
  }

  /** The `require` a CommonJS module gets (an ES module without top-level await gives its namespace). */
  makeRequire(module: ModuleRecord): RequireFunction {
    const require = ((specifier: string) => {
      if (typeof specifier !== "string") {
        throw nodeError("ERR_INVALID_ARG_TYPE", `The "id" argument must be of type string. Received ${describe(specifier)}`, TypeError);
      }
      if (specifier === "")
        throw nodeError("ERR_INVALID_ARG_VALUE", "The argument 'id' must be a non-empty string. Received ''", TypeError);
      const filename = this.resolve(specifier, module.filename, "require", this.requireStackOf(module));
      return this.load(filename, module, "require");
    }) as RequireFunction;
    const resolve = ((specifier: string, options?: { paths?: string[] }) => {
      const filename = this.resolve(specifier, module.filename, "require", this.requireStackOf(module), options?.paths);
      return filename.startsWith("node:") && !specifier.startsWith("node:") ? specifier : filename;
    }) as RequireFunction["resolve"];
    resolve.paths = (specifier: string) => (this.options.isBuiltin(specifier) ? null : this.nodeModulesPaths(dirname(module.filename)));
    require.resolve = resolve;
    require.cache = this.cache;
    require.extensions = Object.create(null);
    Object.defineProperty(require, "main", { get: () => this.main, enumerable: true });
    return require;
  }

  /** Loads a resolved file (or core module) for a `require` (CommonJS) or an import (ESM, sync part). */
  load(filename: string, parent: ModuleRecord | undefined, kind: ResolveKind): unknown {
    if (filename.startsWith("node:")) {
      const exports = this.options.builtin(filename.slice(5));
      return kind === "import" ? namespaceOf(exports, "commonjs") : exports;
    }
    const cached = this.cache[filename];
    if (cached) {
      if (kind === "require" && cached.format === "module") return requiredEsm(cached);
      if (parent && !parent.children.includes(cached)) parent.children.push(cached);
      return kind === "import" ? namespaceOf(cached.exports, cached.format) : cached.exports;
    }
    const module = this.newModule(filename, parent);
    const source = this.fs.readFileSync(filename, "utf8");
    const format = this.formatOf(filename, source);
    module.format = format;
    this.cache[filename] = module;
    if (parent) parent.children.push(module);
    try {
      this.evaluate(module, source, format);
    } catch (error) {
      delete this.cache[filename];
      if (parent) parent.children.splice(parent.children.indexOf(module), 1);
      throw error;
    }
    if (kind === "require" && format === "module") return requiredEsm(module);
    return kind === "import" ? namespaceOf(module.exports, format) : module.exports;
  }

  private evaluate(module: ModuleRecord, source: string, format: Format): void {
    const { filename } = module;
    if (format === "json") {
      try {
        module.exports = JSON.parse(stripBom(source));
      } catch (error) {
        (error as Error).message = `${filename}: ${(error as Error).message}`;
        throw error;
      }
      module.loaded = true;
      return;
    }
    source = stripBom(source);
    // A shebang line becomes a comment of the same length, so positions stay.
    if (source.startsWith("#!")) source = `//${source.slice(2)}`;
    const code = this.transformCode(source, filename, format);
    registerCompiled(filename, {
      prefix: `(function (${WRAPPER_ARGS}) {`.length,
      shown: format === "module" ? fileUrl(filename) : filename,
      ...(this.rewrites(filename, format) ? { written: source, run: code } : {}),
    });
    const importMeta = {
      url: fileUrl(filename),
      filename,
      dirname: dirname(filename),
      resolve: (specifier: string) => {
        const found = this.resolve(specifier, filename, "import");
        return found.startsWith("node:") ? found : fileUrl(found);
      },
    };
    const dynamicImport = (specifier: unknown) => this.importModule(String(specifier), filename);
    // The ES module's own require resolves and loads as `import` does.
    const requireForImport =
      format === "module"
        ? (specifier: string) => this.load(this.resolve(specifier, filename, "import"), module, "import")
        : module.require;
    const args = [module.exports, requireForImport, module, filename, dirname(filename), importMeta, dynamicImport];
    let wrapper: (...values: unknown[]) => unknown;
    try {
      wrapper = this.options.compile(`(function (${WRAPPER_ARGS}) {${code}\n})`, filename) as typeof wrapper;
    } catch (error) {
      // A top-level await: only an ES module may have one, and it makes the module asynchronous.
      if (format === "module" && error instanceof SyntaxError && /await/.test(code)) {
        wrapper = this.options.compile(`(async function (${WRAPPER_ARGS}) {${code}\n})`, filename) as typeof wrapper;
        module.evaluation = (wrapper.apply(module.exports, args) as Promise<void>).then(() => {
          module.loaded = true;
        });
        return;
      }
      throw error;
    }
    wrapper.apply(format === "module" ? undefined : module.exports, args);
    module.loaded = true;
  }

  /** Whether a file is rewritten before it runs (an ES module, or TypeScript). */
  private rewrites(filename: string, format: Format): boolean {
    return format === "module" || TS_FILE.test(filename);
  }

  private rewrite(source: string, filename: string, format: Format) {
    const isTs = TS_FILE.test(filename);
    const transforms: Array<"typescript" | "imports"> = isTs ? ["typescript"] : [];
    if (format === "module") transforms.push("imports");
    return transform(source, {
      transforms,
      filePath: filename,
      preserveDynamicImport: true,
      production: true,
      keepUnusedImports: !isTs,
    });
  }

  private transformCode(source: string, filename: string, format: Format): string {
    if (this.rewrites(filename, format)) {
      try {
        source = this.rewrite(source, filename, format).code;
      } catch (error) {
        const syntax = new SyntaxError(`${(error as Error).message} in ${filename}`);
        throw syntax;
      }
    }
    return source.replace(IMPORT_META, "__importMeta").replace(DYNAMIC_IMPORT, "__dynamicImport(");
  }

  /** `import(specifier)` from `parent` (a file, or undefined for the working directory). */
  async importModule(specifier: string, parent: string | undefined): Promise<unknown> {
    const filename = this.resolve(specifier, parent, "import");
    const parentModule = parent ? this.cache[parent] : undefined;
    const namespace = this.load(filename, parentModule, "import");
    const evaluation = this.cache[filename]?.evaluation;
    if (evaluation) await evaluation;
    return namespace;
  }

  /** Runs the program's main file. Resolves once an ES module with top-level await has finished. */
  async runMain(filename: string): Promise<void> {
    const format = this.formatOf(filename, this.fs.readFileSync(filename, "utf8"));
    const module = this.newModule(filename, undefined);
    module.id = ".";
    module.parent = null;
    module.format = format;
    this.main = module;
    this.cache[filename] = module;
    const source = this.fs.readFileSync(filename, "utf8");
    this.evaluate(module, source, format);
    if (module.evaluation) await module.evaluation;
  }

  /** Code given on the command line (`-e`, `-p`, stdin): a module at `<cwd>/[eval]`. Returns its completion value. */
  runSource(code: string, name: string, asModule: boolean): unknown {
    const filename = join(this.cwd(), name);
    // Node's [eval] module lives in the working directory: requires resolve from there.
    const module = this.newModule(filename, undefined);
    module.id = name;
    module.format = asModule ? "module" : "commonjs";
    if (asModule) {
      this.evaluate(module, code, "module");
      return module.evaluation;
    }
    // A script's completion value is what -p prints: evaluated as a script, with require and friends in scope.
    const scope = globalThis as Record<string, unknown>;
    const names = { require: module.require, module, exports: module.exports, __filename: name, __dirname: "." };
    for (const [key, value] of Object.entries(names)) scope[key] = value;
    const dynamicImport = (specifier: unknown) => this.importModule(String(specifier), filename);
    scope.__dynamicImport = dynamicImport;
    return this.options.compile(code.replace(DYNAMIC_IMPORT, "__dynamicImport("), name);
  }

  /** `createRequire(filename)`: a require as a module at that path would have. */
  createRequire(from: string): RequireFunction {
    const filename = from.startsWith("file:") ? decodeURIComponent(new URL(from).pathname) : from;
    if (!isAbsolute(filename)) {
      throw nodeError(
        "ERR_INVALID_ARG_VALUE",
        `The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received '${from}'`,
        TypeError,
      );
    }
    return this.newModule(filename, undefined).require;
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  return `type ${typeof value} (${String(value)})`;
}

/** `require` of an ES module (Node 20.19+ and 22.12+): its namespace, unless it awaits at the top. */
function requiredEsm(module: ModuleRecord): unknown {
  if (module.evaluation && !module.loaded) {
    throw nodeError(
      "ERR_REQUIRE_ASYNC_MODULE",
      `require() cannot be used on an ESM graph with top-level await. Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.\n  From ${module.parent?.filename ?? "the entry point"}\n  Requiring ${module.filename}`,
    );
  }
  return module.exports;
}

const namespaces = new WeakMap<object, unknown>();

/** What `import` gives for a module: an ES module's exports as they are; a CommonJS one's with `default`. */
function namespaceOf(exports: unknown, format: Format | undefined): unknown {
  if (format === "module") return exports;
  if ((typeof exports !== "object" && typeof exports !== "function") || exports === null) return { __esModule: true, default: exports };
  const known = namespaces.get(exports);
  if (known) return known;
  const namespace: Record<string, unknown> = { __esModule: true };
  for (const key of Object.keys(exports)) {
    if (key === "default" || key === "__esModule") continue;
    Object.defineProperty(namespace, key, { enumerable: true, get: () => (exports as Record<string, unknown>)[key] });
  }
  namespace.default = exports;
  namespaces.set(exports, namespace);
  return namespace;
}
