/**
 * A TypeScript project over the workspace: TypeScript's own language service (5.9, the last line that
 * ships one in JavaScript) on a host that reads from a VirtualFs. The workspace's tsconfig.json decides
 * the files and options, as `tsc -p` would; without one, every script outside node_modules is a root,
 * with the options an editor gives a loose folder. Type packages are found by module resolution in the
 * workspace's node_modules, read only as far as resolution goes.
 */
import ts from "typescript";
import { jsonDiagnostics } from "./json.js";
import { runOperation } from "./operations.js";
import type { Diagnostic, Listing, Loader, Query, Severity } from "./types.js";
import { isCovered, isJson, isScript } from "./types.js";
import { basename, dirname, join, VirtualFs } from "./vfs.js";

/** Where TypeScript's lib files appear to live: outside any workspace, so none of its files can shadow them. */
const LIB_DIR = "/@typescript/lib";

/** Folders the initial walk skips: dependencies are reached by module resolution, not listed. */
const SKIPPED = new Set(["node_modules", ".git"]);

/** An editor's options for a folder without tsconfig.json (close to tsserver's inferred project). */
const LOOSE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  checkJs: false,
  jsx: ts.JsxEmit.Preserve,
  allowSyntheticDefaultImports: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  noEmit: true,
};

/** Rounds of "build, fetch what was missing" before giving up on a resolution that keeps asking. */
const MAX_ROUNDS = 40;

type MatchFiles = (
  path: string,
  extensions: readonly string[] | undefined,
  excludes: readonly string[] | undefined,
  includes: readonly string[] | undefined,
  useCaseSensitiveFileNames: boolean,
  currentDirectory: string,
  depth: number | undefined,
  getFileSystemEntries: (path: string) => { files: readonly string[]; directories: readonly string[] },
  realpath: (path: string) => string,
) => string[];

function severityOf(category: ts.DiagnosticCategory): Severity {
  switch (category) {
    case ts.DiagnosticCategory.Error:
      return 1;
    case ts.DiagnosticCategory.Warning:
      return 2;
    case ts.DiagnosticCategory.Message:
      return 3;
    default:
      return 4;
  }
}

export class TsProject {
  readonly vfs: VirtualFs;
  private readonly registry = ts.createDocumentRegistry(true);
  private readonly libs = new Map<string, string | null>();
  private readonly missingLibs = new Set<string>();
  /** Files the session or the editor has open: roots even when tsconfig does not include them. */
  private readonly opened = new Set<string>();
  private service: ts.LanguageService | undefined;
  private parsed: { options: ts.CompilerOptions; fileNames: string[]; errors: ts.Diagnostic[] } | undefined;
  private projectVersion = 0;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly root: string,
    private readonly loader: Loader,
  ) {
    this.vfs = new VirtualFs(root);
  }

  /** Lists the workspace (without node_modules) and reads its scripts and configs. */
  static async open(root: string, loader: Loader): Promise<TsProject> {
    const project = new TsProject(root, loader);
    await project.walk();
    return project;
  }

  /**
   * Something changed the files without saying which (a shell command: an install, a generator, a git
   * checkout): list the workspace again, read its scripts again (unchanged texts keep their versions, so
   * the program is reused), and forget what was known of node_modules.
   */
  refresh(): Promise<void> {
    return this.serial(async () => {
      const before = this.vfs.allFiles();
      this.vfs.forgetStructure();
      const seen = await this.walk();
      for (const path of before) if (!seen.has(path) && !path.split("/").includes("node_modules")) this.vfs.setFile(path, null);
      // Files read by module resolution (node_modules, JSON) are read again when next asked for.
      for (const path of before) if (path.split("/").includes("node_modules")) this.vfs.forget(path);
      this.service?.dispose();
      this.service = undefined;
      this.parsed = undefined;
      this.projectVersion++;
    });
  }

  private async walk(): Promise<Set<string>> {
    let level = [this.root];
    const wanted: string[] = [];
    while (level.length > 0) {
      const listings = await this.loader.list(level);
      const next: string[] = [];
      for (const dir of level) {
        const listing = listings[dir] ?? null;
        this.vfs.setListing(dir, listing);
        if (!listing) continue;
        for (const name of listing.files) {
          if (isScript(name) || /^(tsconfig|jsconfig)(\..*)?\.json$/.test(name) || name === "package.json") wanted.push(join(dir, name));
        }
        for (const name of listing.dirs) if (!SKIPPED.has(name)) next.push(join(dir, name));
      }
      level = next;
    }
    // Type packages are looked for in node_modules/@types first thing: listed now, it costs no extra round.
    const modules = join(this.root, "node_modules");
    const [texts, listings] = await Promise.all([this.loader.read(wanted), this.loader.list([modules, join(modules, "@types")])]);
    for (const path of wanted) this.vfs.setFile(path, texts[path] ?? null);
    for (const [dir, listing] of Object.entries(listings)) this.vfs.setListing(dir, listing);
    return new Set(wanted);
  }

  /** Runs one request at a time: each may rebuild the program while it fetches missing files. */
  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The workspace changed a file (null: deleted). */
  update(path: string, text: string | null): void {
    const existed = this.vfs.known(path) !== undefined;
    this.vfs.setFile(path, text);
    this.vfs.noteInListing(path, text !== null);
    if (!existed || text === null || basename(path).startsWith("tsconfig") || basename(path) === "package.json") this.parsed = undefined;
    this.projectVersion++;
  }

  open(path: string): void {
    if (this.opened.has(path)) return;
    this.opened.add(path);
    this.projectVersion++;
  }

  covers(path: string): boolean {
    return isCovered(path);
  }

  diagnostics(paths: string[]): Promise<Record<string, Diagnostic[]>> {
    return this.serial(async () => {
      const scripts = paths.filter(isScript);
      const out: Record<string, Diagnostic[]> = {};
      for (const path of paths.filter(isJson)) {
        const text = this.vfs.known(path) ?? (await this.loader.read([path]))[path] ?? null;
        if (text !== null) this.vfs.setFile(path, text);
        out[path] = text === null ? [] : jsonDiagnostics(path, text);
      }
      if (scripts.length === 0) return out;
      for (const path of scripts) this.open(path);
      const found = await this.settle((service) =>
        scripts.map((path) => {
          if (!this.vfs.fileExists(path)) return [];
          return [...service.getSyntacticDiagnostics(path), ...service.getSemanticDiagnostics(path)];
        }),
      );
      scripts.forEach((path, i) => {
        out[path] = (found[i] ?? []).map((d) => this.convert(d));
      });
      return out;
    });
  }

  query(query: Query): Promise<unknown> {
    return this.serial(async () => {
      if (!isScript(query.path)) throw new Error("No LSP server available for this file type.");
      this.open(query.path);
      return this.settle((service) => runOperation(service, query));
    });
  }

  /** The compiler options in force (tsconfig's, or the loose ones), after the config is read. */
  async options(): Promise<ts.CompilerOptions> {
    return this.serial(() => this.settle(() => this.config().options));
  }

  /** Loads lib files and the libs they reference, level by level, each level in parallel. */
  private async loadLibs(names: string[]): Promise<void> {
    let level = names.filter((name) => !this.libs.has(name));
    while (level.length > 0) {
      const texts = await Promise.all(level.map((name) => this.loader.lib(name)));
      const next = new Set<string>();
      level.forEach((name, i) => {
        const text = texts[i];
        this.libs.set(name, text ?? null);
        for (const match of text?.matchAll(/^\/\/\/\s*<reference\s+lib="([^"]+)"/gm) ?? []) {
          const referenced = `lib.${match[1]!.toLowerCase()}.d.ts`;
          if (!this.libs.has(referenced)) next.add(referenced);
        }
      });
      level = [...next];
    }
  }

  /**
   * Runs `run` against the service, fetching what it found missing and running again until nothing is.
   * The program is completed first (its lib files with everything they reference, then each round of
   * module resolution), so the request itself runs once on the finished program.
   */
  private async settle<T>(run: (service: ts.LanguageService) => T): Promise<T> {
    const options = this.config().options;
    await this.loadLibs(options.lib ?? [ts.getDefaultLibFileName(options)]);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      this.languageService().getProgram();
      if (!(await this.fetchMisses())) break;
    }
    for (let round = 0; ; round++) {
      const result = run(this.languageService());
      if (!(await this.fetchMisses()) || round >= MAX_ROUNDS) return result;
    }
  }

  /** Fetches what the last build missed; false when it missed nothing. */
  private async fetchMisses(): Promise<boolean> {
    const misses = this.vfs.takeMisses();
    const libs = [...this.missingLibs];
    this.missingLibs.clear();
    if (misses.files.length === 0 && misses.dirs.length === 0 && libs.length === 0) return false;
    await this.fetch(misses.files, misses.dirs, libs);
    // A fresh service re-resolves every import against what is now known; parsed files are reused
    // from the document registry, so a round costs a program build, not a parse.
    this.service?.dispose();
    this.service = undefined;
    this.parsed = undefined;
    this.projectVersion++;
    return true;
  }

  private async fetch(files: string[], dirs: string[], libs: string[]): Promise<void> {
    const listDirs = new Set<string>();
    for (const dir of dirs) {
      listDirs.add(dir);
      if (!this.vfs.hasListing(dirname(dir))) listDirs.add(dirname(dir));
    }
    for (const file of files) if (!this.vfs.hasListing(dirname(file))) listDirs.add(dirname(file));
    const [listings, texts] = await Promise.all([
      listDirs.size > 0 ? this.loader.list([...listDirs]) : Promise.resolve({} as Record<string, Listing | null>),
      files.length > 0 ? this.loader.read(files) : Promise.resolve({} as Record<string, string | null>),
    ]);
    for (const dir of listDirs) this.vfs.setListing(dir, listings[dir] ?? null);
    for (const file of files) this.vfs.setFile(file, texts[file] ?? null);
    await this.loadLibs(libs);
  }

  private config(): { options: ts.CompilerOptions; fileNames: string[]; errors: ts.Diagnostic[] } {
    if (this.parsed) return this.parsed;
    const path = join(this.root, "tsconfig.json");
    const host: ts.ParseConfigHost = {
      useCaseSensitiveFileNames: true,
      fileExists: (p) => this.fileExists(p),
      readFile: (p) => this.readFile(p),
      readDirectory: (dir, extensions, excludes, includes, depth) => this.readDirectory(dir, extensions, excludes, includes, depth),
    };
    const text = this.vfs.known(path);
    if (text === undefined) {
      const fileNames = this.vfs.allFiles().filter((p) => isScript(p) && !p.split("/").includes("node_modules"));
      this.parsed = { options: { ...LOOSE_OPTIONS }, fileNames, errors: [] };
    } else {
      const json = ts.parseConfigFileTextToJson(path, text);
      const parsed = ts.parseJsonConfigFileContent(json.config ?? {}, host, this.root, undefined, path);
      this.parsed = { options: parsed.options, fileNames: parsed.fileNames, errors: parsed.errors };
    }
    return this.parsed;
  }

  private languageService(): ts.LanguageService {
    if (this.service) return this.service;
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => {
        const options = this.config().options;
        // An open JavaScript file outside the config's files is checked as an editor would: allowed in.
        const jsOpen = [...this.opened].some((p) => /\.[cm]?jsx?$/.test(p) && !this.config().fileNames.includes(p));
        return jsOpen && !options.allowJs ? { ...options, allowJs: true } : options;
      },
      getProjectVersion: () => String(this.projectVersion),
      getScriptFileNames: () => {
        const names = new Set(this.config().fileNames);
        for (const path of this.opened) if (this.vfs.known(path) !== undefined) names.add(path);
        return [...names];
      },
      getScriptVersion: (path) => this.vfs.version(path),
      getScriptSnapshot: (path) => {
        const text = this.readFile(path);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => this.root,
      getDefaultLibFileName: (options) => `${LIB_DIR}/${ts.getDefaultLibFileName(options)}`,
      fileExists: (p) => this.fileExists(p),
      readFile: (p) => this.readFile(p),
      directoryExists: (d) => (d === LIB_DIR ? true : this.vfs.directoryExists(d)),
      getDirectories: (d) => this.vfs.getDirectories(d),
      readDirectory: (dir, extensions, excludes, includes, depth) => this.readDirectory(dir, extensions, excludes, includes, depth),
      useCaseSensitiveFileNames: () => true,
    };
    this.service = ts.createLanguageService(host, this.registry);
    return this.service;
  }

  private lib(path: string): string | undefined {
    const name = path.slice(LIB_DIR.length + 1);
    if (!this.libs.has(name)) {
      this.missingLibs.add(name);
      return undefined;
    }
    return this.libs.get(name) ?? undefined;
  }

  private fileExists(path: string): boolean {
    if (path.startsWith(`${LIB_DIR}/`)) return this.lib(path) !== undefined || !this.libs.has(path.slice(LIB_DIR.length + 1));
    return this.vfs.fileExists(path);
  }

  private readFile(path: string): string | undefined {
    if (path.startsWith(`${LIB_DIR}/`)) return this.lib(path);
    return this.vfs.readFile(path);
  }

  private readDirectory(
    dir: string,
    extensions?: readonly string[],
    excludes?: readonly string[],
    includes?: readonly string[],
    depth?: number,
  ): string[] {
    const match = (ts as unknown as { matchFiles?: MatchFiles }).matchFiles;
    if (typeof match === "function") {
      return match(
        dir,
        extensions,
        excludes,
        includes,
        true,
        this.root,
        depth,
        (d) => this.vfs.entries(d),
        (p) => p,
      );
    }
    // Without TypeScript's matcher (another version): every listed file with a wanted extension.
    const prefix = dir.endsWith("/") ? dir : `${dir}/`;
    return this.vfs.allFiles().filter((p) => p.startsWith(prefix) && (!extensions || extensions.some((e) => p.endsWith(e))));
  }

  private convert(d: ts.Diagnostic): Diagnostic {
    const file = d.file;
    const start = d.start ?? 0;
    const from = file ? file.getLineAndCharacterOfPosition(start) : { line: 0, character: 0 };
    const to = file ? file.getLineAndCharacterOfPosition(start + (d.length ?? 0)) : from;
    return {
      line: from.line,
      character: from.character,
      endLine: to.line,
      endCharacter: to.character,
      severity: severityOf(d.category),
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      code: d.code,
      source: "typescript",
    };
  }
}
