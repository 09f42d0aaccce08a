/**
 * Builds what the preview frame runs for one HTML page: its markup, and every file it reaches (module
 * graph, CommonJS packages, style sheets, assets) as text the frame turns into blob: URLs of its own.
 * Transforms and resolutions are kept between builds and dropped for the files a change names, so a
 * rebuild after an edit reads and transpiles only what changed.
 */
import { posix } from "pathe";
import { type HtmlReference, rewriteHtml } from "./html.js";
import { type ResolveFiles, type ResolveMode, resolveImport } from "./resolve.js";
import { initLexers, type TransformedModule, transformModule } from "./transform.js";
import { errorMessage } from "../../base/error-message.js";
import { mimeType } from "./mime-type.js";

/** How the builder reads the workspace. */
export interface PreviewFiles extends ResolveFiles {
  readBytes(path: string): Promise<Uint8Array | undefined>;
}

/** Where an ES module names another by its key (the quotes excluded), so a hot update can point it elsewhere. */
export interface ModuleImport {
  start: number;
  end: number;
  key: string;
}

/** A file the frame makes a blob: URL for. `ref` is its placeholder's number. */
export type FrameBlob =
  | { ref: number; kind: "esm"; key: string; path: string; code: string; imports: ModuleImport[] }
  | { ref: number; kind: "cjs"; key: string; path: string; code: string; requires: Record<string, string | null> }
  | { ref: number; kind: "script"; path: string; code: string }
  | { ref: number; kind: "asset"; path: string; type: string; base64: string }
  | { ref: number; kind: "text-asset"; path: string; type: string; text: string };

export interface FramePayload {
  /** Placeholders read `__wbref_<nonce>_<ref>__`; the nonce keeps them from matching anything an app writes. */
  nonce: string;
  html: string;
  blobs: FrameBlob[];
}

export interface PreviewBuild {
  payload: FramePayload;
  /** The page itself, absolute. */
  htmlPath: string;
  /** The app's folder: where `/x` leads. */
  appRoot: string;
  /** Every file the page loaded, absolute: a change to one of them reloads it. */
  loaded: Set<string>;
  /** Imports that could not be resolved and were left to fail in the frame (dynamic imports, requires). */
  warnings: string[];
  /** The keys of the page's module scripts, in document order: what a hot update runs again. */
  entries: string[];
}

export class PreviewBuildError extends Error {
  override readonly name = "PreviewBuildError";
}

/** The app's folder for a page: the nearest folder at or above it with a package.json, else the workspace. */
async function appRootOf(files: ResolveFiles, htmlPath: string, workspaceRoot: string): Promise<string> {
  for (let folder = posix.dirname(htmlPath); folder.startsWith(workspaceRoot); folder = posix.dirname(folder)) {
    if (await files.isFile(posix.join(folder, "package.json"))) return folder;
    if (folder === workspaceRoot || folder === "/") break;
  }
  return workspaceRoot;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function asRelativeUrl(url: string): string {
  return url.startsWith("/") || url.startsWith(".") ? url : `./${url}`;
}

/** A JavaScript identifier that can be exported by name (not `default`, not a reserved word). */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await arguments eval".split(
    " ",
  ),
);

export class PreviewBuilder {
  private readonly transforms = new Map<string, TransformedModule>();
  private readonly texts = new Map<string, string>();
  private readonly resolutions = new Map<string, string>();
  /**
   * Every path resolution asked about (whether it is a file, a package.json's text): a cached resolution
   * depends on those answers only, so a change elsewhere (a file the page never looked for) keeps them.
   */
  private readonly asked = new Map<string, Promise<boolean | string | undefined>>();
  /** Paths asked about that a change named since: asked again before the next build uses a resolution. */
  private readonly suspects = new Set<string>();
  private readonly askingFiles: ResolveFiles = {
    isFile: (path) => {
      const answer = this.files.isFile(path);
      this.asked.set(path, answer);
      return answer;
    },
    readText: (path) => {
      const answer = this.files.readText(path);
      this.asked.set(path, answer);
      return answer;
    },
  };
  private readonly decoder = new TextDecoder();
  /**
   * Bumped by every change: a read that started before a change must not fill the cache after it (the
   * build under way then caches the old text, and the rebuild the change asked for would reuse it).
   */
  private epoch = 0;

  constructor(
    private readonly files: PreviewFiles,
    readonly workspaceRoot: string,
  ) {}

  /** Forgets what a change may have made stale. A new or removed file can change any resolution. */
  invalidate(paths: readonly string[] | "unknown"): void {
    this.epoch++;
    if (paths === "unknown") {
      this.transforms.clear();
      this.texts.clear();
      this.forgetResolutions();
      return;
    }
    for (const path of paths) {
      this.transforms.delete(path);
      this.texts.delete(path);
      // A folder moved or removed may be named alone: what was read under it goes too.
      const folder = `${path}/`;
      for (const known of this.texts.keys()) if (known.startsWith(folder)) this.texts.delete(known);
      for (const known of this.transforms.keys()) if (known.startsWith(folder)) this.transforms.delete(known);
      if (this.asked.has(path)) this.suspects.add(path);
      if (this.askedUnder(path)) this.forgetResolutions();
    }
  }

  /** A folder moved or removed names only itself: what resolution asked about under it may be gone. */
  private askedUnder(path: string): boolean {
    const folder = `${path}/`;
    for (const asked of this.asked.keys()) if (asked.startsWith(folder)) return true;
    return false;
  }

  /**
   * An edit of a file that exists (the usual change) leaves every answer as it was; a file made or
   * removed where resolution looked, or a package.json edited, changes one, and resolutions start over.
   */
  private async checkSuspects(): Promise<void> {
    if (this.suspects.size === 0) return;
    const suspects = [...this.suspects];
    this.suspects.clear();
    const changed = await Promise.all(
      suspects.map(async (path) => {
        const before = await this.asked.get(path);
        const now = typeof before === "boolean" ? await this.files.isFile(path) : await this.files.readText(path);
        return now !== before;
      }),
    );
    if (changed.some(Boolean)) this.forgetResolutions();
  }

  private forgetResolutions(): void {
    this.resolutions.clear();
    this.asked.clear();
    this.suspects.clear();
  }

  private async text(path: string): Promise<string> {
    const cached = this.texts.get(path);
    if (cached !== undefined) return cached;
    const epoch = this.epoch;
    const bytes = await this.files.readBytes(path);
    if (bytes === undefined) {
      // A file that vanished between resolution and reading: resolve again next time.
      this.forgetResolutions();
      throw new PreviewBuildError(`${path} could not be read (it was moved or deleted)`);
    }
    const text = this.decoder.decode(bytes);
    if (epoch === this.epoch) this.texts.set(path, text);
    return text;
  }

  private async transformed(path: string): Promise<TransformedModule> {
    const cached = this.transforms.get(path);
    if (cached) return cached;
    const epoch = this.epoch;
    const result = transformModule(path, await this.text(path));
    if (epoch === this.epoch) this.transforms.set(path, result);
    return result;
  }

  private async resolve(importer: string, specifier: string, appRoot: string, mode: ResolveMode): Promise<string> {
    const id = `${importer}\0${specifier}\0${mode}\0${appRoot}`;
    const cached = this.resolutions.get(id);
    if (cached !== undefined) return cached;
    const epoch = this.epoch;
    const path = await resolveImport(this.askingFiles, importer, specifier, appRoot, mode);
    if (epoch === this.epoch) this.resolutions.set(id, path);
    return path;
  }

  async build(htmlPath: string): Promise<PreviewBuild> {
    await Promise.all([initLexers(), this.checkSuspects()]);
    const appRoot = await appRootOf(this.files, htmlPath, this.workspaceRoot);
    const run = new BuildRun(this, htmlPath, appRoot);
    const html = await rewriteHtml(await this.text(htmlPath), (reference) => run.htmlReference(reference));
    run.loaded.add(htmlPath);
    return {
      payload: { nonce: run.nonce, html, blobs: run.blobs },
      htmlPath,
      appRoot,
      loaded: run.loaded,
      warnings: run.warnings,
      entries: run.entries,
    };
  }

  /** For one build run: the cached reads. */
  readText = (path: string) => this.text(path);
  readBytes = (path: string) => this.files.readBytes(path);
  transformOf = (path: string) => this.transformed(path);
  resolveFrom = (importer: string, specifier: string, appRoot: string, mode: ResolveMode) =>
    this.resolve(importer, specifier, appRoot, mode);
}

/** The state of one build: which files have become blobs, under which placeholder. */
class BuildRun {
  readonly nonce = `n${Math.random().toString(36).slice(2, 10)}`;
  readonly blobs: FrameBlob[] = [];
  readonly loaded = new Set<string>();
  readonly warnings: string[] = [];
  readonly entries: string[] = [];
  /** Module key → its blob, for ES modules (and the ES facades of CommonJS files). */
  private readonly modules = new Map<string, Promise<void>>();
  private readonly cjs = new Map<string, Promise<void>>();
  private readonly assets = new Map<string, Promise<number>>();
  private inlineCount = 0;

  constructor(
    private readonly builder: PreviewBuilder,
    private readonly htmlPath: string,
    private readonly appRoot: string,
  ) {}

  placeholder(ref: number): string {
    return `__wbref_${this.nonce}_${ref}__`;
  }

  private refs = 0;
  private nextRef(): number {
    return this.refs++;
  }

  async htmlReference(reference: HtmlReference): Promise<string | undefined> {
    const from = this.htmlPath;
    // In HTML (and CSS) "style.css" is a relative URL, not a package name.
    if (reference.kind !== "inline-module") reference = { ...reference, value: asRelativeUrl(reference.value) };
    if (reference.kind === "inline-module") {
      const path = `${this.htmlPath}?inline-${this.inlineCount++}`;
      const key = `@wb${path}`;
      // Blank lines first, so a line of the inline script keeps its number in the page.
      const padded = "\n".repeat(reference.linesBefore ?? 0) + reference.value;
      this.entries.push(key);
      await this.addEsm(key, path, transformModule(`${this.htmlPath}.js`, padded));
      return `<script type="module">import ${JSON.stringify(key)};</script>`;
    }
    let path: string;
    try {
      path = await this.builder.resolveFrom(from, reference.value, this.appRoot, "import");
    } catch (error) {
      if (reference.kind === "module") throw error;
      this.warnings.push(errorMessage(error));
      return undefined;
    }
    if (reference.kind === "module") {
      const entry = this.entries.length;
      this.entries.push("");
      const key = await this.module(path);
      this.entries[entry] = key;
      return `<script type="module">import ${JSON.stringify(key)};</script>`;
    }
    if (reference.kind === "script") {
      const ref = this.nextRef();
      this.loaded.add(path);
      this.blobs.push({ ref, kind: "script", path, code: await this.builder.readText(path) });
      return this.placeholder(ref);
    }
    return this.placeholder(await this.asset(path, reference.kind === "stylesheet"));
  }

  /** Adds a file as an ES module (and what it imports); returns its key. */
  async module(path: string, query = ""): Promise<string> {
    const key = `@wb${path}${query}`;
    if (!this.modules.has(key)) {
      const done = this.addModule(key, path, query);
      this.modules.set(key, done);
      await done;
    }
    return key;
  }

  private async addModule(key: string, path: string, query: string): Promise<void> {
    this.loaded.add(path);
    if (query === "?raw") return this.pushEsm(key, path, `export default ${JSON.stringify(await this.builder.readText(path))};`);
    if (query === "?url")
      return this.pushEsm(key, path, `export default ${JSON.stringify(this.placeholder(await this.asset(path, false)))};`);
    const transformed = await this.builder.transformOf(path);
    switch (transformed.kind) {
      case "esm":
        return this.addEsm(key, path, transformed);
      case "cjs":
        return this.addCjsFacade(key, path, transformed);
      case "json":
        try {
          JSON.parse(transformed.code);
        } catch (error) {
          throw new PreviewBuildError(`${path} is not valid JSON: ${errorMessage(error)}`);
        }
        return this.pushEsm(key, path, `export default ${transformed.code};`);
      case "css": {
        const css = await this.cssWithUrls(path, transformed);
        // A hot update runs this again: the sheet it added before gives way to the new one.
        const code = `for (const old of document.querySelectorAll("style")) if (old.dataset.wbPath === ${JSON.stringify(path)}) old.remove();\nconst style = document.createElement("style");\nstyle.dataset.wbPath = ${JSON.stringify(path)};\nstyle.textContent = ${JSON.stringify(css)};\ndocument.head.appendChild(style);\nexport default style.textContent;`;
        return this.pushEsm(key, path, code);
      }
      case "asset":
        return this.pushEsm(key, path, `export default ${JSON.stringify(this.placeholder(await this.asset(path, false)))};`);
    }
  }

  private pushEsm(key: string, path: string, code: string, imports: ModuleImport[] = []): void {
    this.blobs.push({ ref: this.nextRef(), kind: "esm", key, path, code, imports });
  }

  private async addEsm(key: string, path: string, transformed: TransformedModule): Promise<void> {
    const replacements: Array<{ start: number; end: number; text: string }> = [];
    await Promise.all(
      transformed.imports.map(async (site) => {
        const [bare, query = ""] = site.specifier.split(/(?=\?)/);
        let target: string;
        try {
          target = await this.builder.resolveFrom(path.replace(/\?.*$/, ""), bare!, this.appRoot, "import");
        } catch (error) {
          if (!site.dynamic) throw new PreviewBuildError(`${errorMessage(error)}`);
          this.warnings.push(errorMessage(error));
          return;
        }
        const keep = query === "?raw" || query === "?url" ? query : "";
        replacements.push({ start: site.start, end: site.end, text: await this.module(target, keep) });
      }),
    );
    // Spliced in from the start, so each key's place in the new code is known as it is written.
    let code = "";
    let from = 0;
    const imports: ModuleImport[] = [];
    for (const { start, end, text } of replacements.sort((a, b) => a.start - b.start)) {
      code += transformed.code.slice(from, start);
      imports.push({ start: code.length, end: code.length + text.length, key: text });
      code += text;
      from = end;
    }
    code += transformed.code.slice(from);
    this.pushEsm(key, path, code, imports);
  }

  private async cssWithUrls(path: string, transformed: TransformedModule): Promise<string> {
    const replacements: Array<{ start: number; end: number; text: string }> = [];
    for (const site of transformed.urls) {
      try {
        const target = await this.builder.resolveFrom(path, asRelativeUrl(site.specifier), this.appRoot, "import");
        replacements.push({ start: site.start, end: site.end, text: this.placeholder(await this.asset(target, false)) });
      } catch (error) {
        this.warnings.push(errorMessage(error));
      }
    }
    let css = transformed.code;
    for (const { start, end, text } of replacements.sort((a, b) => b.start - a.start)) css = css.slice(0, start) + text + css.slice(end);
    return css;
  }

  /** A file as a blob: URL the frame makes; style sheets keep their url()s pointing at other blobs. */
  private asset(path: string, stylesheet: boolean): Promise<number> {
    let ref = this.assets.get(path);
    if (!ref) {
      ref = (async () => {
        this.loaded.add(path);
        const number = this.nextRef();
        if (stylesheet) {
          const transformed = await this.builder.transformOf(path);
          this.blobs.push({ ref: number, kind: "text-asset", path, type: "text/css", text: await this.cssWithUrls(path, transformed) });
        } else {
          const bytes = await this.builder.readBytes(path);
          if (!bytes) throw new PreviewBuildError(`${path} could not be read (it was moved or deleted)`);
          this.blobs.push({ ref: number, kind: "asset", path, type: mimeType(path), base64: toBase64(bytes) });
        }
        return number;
      })();
      this.assets.set(path, ref);
    }
    return ref;
  }

  /**
   * A CommonJS file as ES modules see it: module.exports as the default export (its `default` when it
   * says `__esModule`), and the names cjs-module-lexer finds (following re-exports) as named exports.
   */
  private async addCjsFacade(key: string, path: string, transformed: TransformedModule): Promise<void> {
    await this.addCjs(path);
    const names = [...(await this.exportNames(path, transformed, new Set()))].filter(
      (name) => IDENTIFIER.test(name) && !RESERVED.has(name),
    );
    const lines = [
      `const m = globalThis.__wbRequire(${JSON.stringify(path)});`,
      "export default m && m.__esModule && 'default' in m ? m.default : m;",
      ...names.map((name) => `export const ${name} = m[${JSON.stringify(name)}];`),
    ];
    this.pushEsm(key, path, lines.join("\n"));
  }

  private async exportNames(path: string, transformed: TransformedModule, seen: Set<string>): Promise<Set<string>> {
    seen.add(path);
    const names = new Set(transformed.cjsExports);
    for (const reexport of transformed.cjsReexports) {
      try {
        const target = await this.builder.resolveFrom(path, reexport, this.appRoot, "require");
        if (seen.has(target)) continue;
        const next = await this.builder.transformOf(target);
        if (next.kind === "cjs") for (const name of await this.exportNames(target, next, seen)) names.add(name);
      } catch {
        // a re-export that cannot be followed adds no names
      }
    }
    return names;
  }

  private addCjsJson(path: string, json: string): Promise<void> {
    let done = this.cjs.get(path);
    if (!done) {
      this.loaded.add(path);
      this.blobs.push({ ref: this.nextRef(), kind: "cjs", key: `@wb${path}`, path, code: `module.exports = ${json};`, requires: {} });
      done = Promise.resolve();
      this.cjs.set(path, done);
    }
    return done;
  }

  /** A CommonJS file and everything it requires, each a function the frame's require runs by path. */
  private addCjs(path: string): Promise<void> {
    let done = this.cjs.get(path);
    if (!done) {
      done = (async () => {
        this.loaded.add(path);
        const transformed = await this.builder.transformOf(path);
        const requires: Record<string, string | null> = {};
        await Promise.all(
          transformed.requires.map(async (specifier) => {
            try {
              const target = await this.builder.resolveFrom(path, specifier, this.appRoot, "require");
              requires[specifier] = target;
              const required = await this.builder.transformOf(target);
              if (required.kind === "cjs") await this.addCjs(target);
              else if (required.kind === "json") await this.addCjsJson(target, required.code);
              else {
                requires[specifier] = null;
                this.warnings.push(
                  `${path} requires ${target}, which is not CommonJS: require() in the preview loads only CommonJS and JSON files`,
                );
              }
            } catch (error) {
              // Often a branch never taken (`require("fs")` behind a check); it fails only if it runs.
              requires[specifier] = null;
              this.warnings.push(errorMessage(error));
            }
          }),
        );
        const code = transformed.kind === "cjs" ? transformed.code : "";
        this.blobs.push({ ref: this.nextRef(), kind: "cjs", key: `@wb${path}`, path, code, requires });
      })();
      this.cjs.set(path, done);
    }
    return done;
  }
}
