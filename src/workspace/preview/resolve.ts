/**
 * How the preview finds the file an import names, as Vite's dev server does for the common cases: a
 * relative or root-absolute path (extensions and folder index files tried in Vite's order), or a bare
 * package name looked up in `node_modules` folders from the importer upwards, through the package's
 * `exports` (conditions browser, import, module, development, default; resolve.exports does the matching),
 * then its `module`, `browser` and `main` fields.
 */
import { posix } from "pathe";
import { exports as exportsTarget } from "resolve.exports";

/** What resolution reads: whether a file exists, and a package.json's text. */
export interface ResolveFiles {
  isFile(path: string): Promise<boolean>;
  readText(path: string): Promise<string | undefined>;
}

/** Tried after the name as written, in Vite's order. */
const EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".mjs", ".mts", ".json"];
const IMPORT_CONDITIONS = ["browser", "import", "module", "development", "default"];
const REQUIRE_CONDITIONS = ["browser", "require", "development", "default"];

/** `import` statements and `require()` calls pick different entries of a package's `exports`. */
export type ResolveMode = "import" | "require";

class ResolveError extends Error {
  override readonly name = "ResolveError";
}

/** `react-dom/client` → ["react-dom", "./client"]; `@scope/pkg/x` → ["@scope/pkg", "./x"]. */
function splitBare(specifier: string): [name: string, subpath: string] {
  const parts = specifier.split("/");
  const count = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, count).join("/");
  const rest = parts.slice(count).join("/");
  return [name, rest ? `./${rest}` : "."];
}

function isBare(specifier: string): boolean {
  return !specifier.startsWith(".") && !specifier.startsWith("/") && !/^[a-z][a-z0-9+.-]*:/i.test(specifier);
}

async function asFileOrFolder(files: ResolveFiles, path: string, mode: ResolveMode): Promise<string | undefined> {
  if (await files.isFile(path)) return path;
  for (const extension of EXTENSIONS) if (await files.isFile(path + extension)) return path + extension;
  // TypeScript sources import their siblings as `./x.js`.
  const js = /\.(m?)js$/.exec(path);
  if (js) {
    for (const extension of js[1] ? [".mts"] : [".ts", ".tsx"]) {
      const candidate = path.slice(0, -js[0].length) + extension;
      if (await files.isFile(candidate)) return candidate;
    }
  }
  const manifest = await files.readText(posix.join(path, "package.json"));
  if (manifest !== undefined) {
    const entry = packageEntry(parseManifest(manifest, path), ".", mode);
    if (entry) {
      const found = await asFileOrFolder(files, posix.join(path, entry), mode);
      if (found) return found;
    }
  }
  for (const extension of EXTENSIONS) {
    const index = posix.join(path, `index${extension}`);
    if (await files.isFile(index)) return index;
  }
  return undefined;
}

type Manifest = Record<string, unknown>;

function parseManifest(text: string, where: string): Manifest {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Manifest;
  } catch {
    // reported below
  }
  throw new ResolveError(`${where}/package.json is not a JSON object: fix or reinstall the package`);
}

/** The file a package's subpath leads to, relative to the package folder; undefined when it says nothing. */
function packageEntry(manifest: Manifest, subpath: string, mode: ResolveMode): string | undefined {
  if (manifest.exports !== undefined) {
    let targets: string[] | void;
    try {
      targets = exportsTarget(manifest, subpath, { unsafe: true, conditions: mode === "import" ? IMPORT_CONDITIONS : REQUIRE_CONDITIONS });
    } catch {
      targets = undefined;
    }
    if (!targets || targets.length === 0) {
      throw new ResolveError(`the package ${String(manifest.name)} does not export "${subpath}" (see its package.json "exports")`);
    }
    return targets[0];
  }
  if (subpath !== ".") return subpath;
  for (const field of mode === "import" ? ["module", "browser", "main"] : ["browser", "main"]) {
    const value = manifest[field];
    if (typeof value === "string" && value) return value;
  }
  return undefined;
}

/**
 * The absolute path `specifier` leads to from the file `importer`. `root` is the app's folder (where
 * `/x` imports start, and where a `public/` folder is looked in as Vite does).
 */
export async function resolveImport(
  files: ResolveFiles,
  importer: string,
  specifier: string,
  root: string,
  mode: ResolveMode = "import",
): Promise<string> {
  const bare = specifier.split(/[?#]/)[0]!;
  if (!isBare(bare)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(bare)) throw new ResolveError(`"${specifier}" is a URL, not a workspace file`);
    const base = bare.startsWith("/") ? posix.join(root, bare) : posix.join(posix.dirname(importer), bare);
    const found =
      (await asFileOrFolder(files, base, mode)) ??
      (bare.startsWith("/") ? await asFileOrFolder(files, posix.join(root, "public", bare), mode) : undefined);
    if (found) return found;
    throw new ResolveError(
      `cannot find "${specifier}" imported by ${importer}: no such file (tried ${EXTENSIONS.join(", ")} and index files)`,
    );
  }
  const [name, subpath] = splitBare(bare);
  for (let folder = posix.dirname(importer); ; folder = posix.dirname(folder)) {
    const packageFolder = posix.join(folder, "node_modules", name);
    const manifest = await files.readText(posix.join(packageFolder, "package.json"));
    if (manifest !== undefined) {
      const entry = packageEntry(parseManifest(manifest, packageFolder), subpath, mode) ?? "index.js";
      const found = await asFileOrFolder(files, posix.join(packageFolder, entry), mode);
      if (found) return found;
      throw new ResolveError(`the package ${name} names ${entry} for "${specifier}", which does not exist: reinstall it`);
    }
    if (folder === "/" || folder === ".") break;
  }
  throw new ResolveError(
    `cannot find the package "${name}" imported by ${importer}: install it (npm install ${name}) so it is in node_modules`,
  );
}
