// The `workbench` command as one bundle of our sources (esbuild, with source maps), so a start costs node's
// own load of plain JavaScript instead of compiling TypeScript each time. Packages stay external: node loads
// them from node_modules as it always did, so web-tree-sitter, pyodide and typescript still find their wasm
// and libraries beside themselves.
//
// The bundle lives under node_modules/.cache/workbench-cli and is checked at every start: `current.json`
// lists every source file that went in with its size and mtime, and any change (an edit, a pull, a deleted
// file) builds it again before the command runs. `npm install` builds it first (postinstall), so a fresh
// clone's first command does not wait.
//
// `import.meta.url` keeps meaning the source file it is written in (files read beside a module: the python
// host, driver.py, the node runtime's sources), except for the worker threads' entries, which point at
// their own bundles (the sources' .mjs shims would compile TypeScript in every worker).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = join(ROOT, "node_modules", ".cache", "workbench-cli");
const POINTER = join(CACHE, "current.json");
/** A build no newer than this is never removed: a long `workbench run` may still start a worker from it. */
const KEEP_OLD_BUILDS_MS = 24 * 60 * 60 * 1000;

/** Bundle name -> source entry. */
const ENTRIES = {
  workbench: "src/cli/bin.ts",
  "shell-worker": "src/runtime/embedded/worker.node.ts",
  "search-thread": "src/runtime/node/search-thread.ts",
  "execute-worker": "src/tools/execute/program-worker.node.ts",
};

/** Worker threads started by URL: in the bundle they start the worker's bundle, not the TypeScript shim. */
const WORKER_URLS = [
  {
    file: "src/runtime/embedded/node-worker-factory.ts",
    from: 'new URL("./worker.node.mjs", import.meta.url)',
    to: 'new URL("./shell-worker.js", __workbenchBundleUrl)',
  },
  {
    file: "src/runtime/node/search-pool.ts",
    from: 'new URL("./search-thread.mjs", import.meta.url)',
    to: 'new URL("./search-thread.js", __workbenchBundleUrl)',
  },
  {
    file: "src/tools/execute/node-program-thread.ts",
    from: "new URL(ENTRY, import.meta.url)",
    to: 'new URL("./execute-worker.js", __workbenchBundleUrl)',
  },
];

function readPointer() {
  try {
    return JSON.parse(readFileSync(POINTER, "utf8"));
  } catch {
    return undefined;
  }
}

function stamp(file) {
  const stats = statSync(join(ROOT, file));
  return [stats.size, stats.mtimeMs];
}

function isFresh(pointer) {
  if (!pointer || typeof pointer.dir !== "string" || typeof pointer.inputs !== "object") return false;
  // The bundle names the modules it shares with the bin by absolute URL: a moved checkout builds again.
  if (pointer.root !== ROOT) return false;
  try {
    for (const [file, [size, mtime]] of Object.entries(pointer.inputs)) {
      const [nowSize, nowMtime] = stamp(file);
      if (nowSize !== size || nowMtime !== mtime) return false;
    }
    statSync(join(CACHE, pointer.dir, "workbench.js"));
    return true;
  } catch {
    return false;
  }
}

/**
 * Modules the bin loads before the bundle (the environment it holds the keys in): the bundle imports the
 * one instance by its file URL instead of carrying a copy whose state would be empty.
 */
function sharedWithBin() {
  return {
    name: "workbench-shared-with-bin",
    setup(build) {
      build.onResolve({ filter: /\/held-environment\.mjs$/ }, (args) => ({
        path: pathToFileURL(resolve(args.resolveDir, args.path)).href,
        external: true,
      }));
    },
  };
}

/** Text imports (`./description.txt?raw`), which Vite handles in the page and in vitest; `read` collects their paths. */
function rawText(read) {
  return {
    name: "workbench-raw-text",
    setup(build) {
      build.onResolve({ filter: /\?raw$/ }, (args) => ({
        path: resolve(args.resolveDir, args.path.slice(0, -"?raw".length)),
        namespace: "raw-text",
      }));
      build.onLoad({ filter: /.*/, namespace: "raw-text" }, (args) => {
        read.add(args.path);
        return { contents: readFileSync(args.path, "utf8"), loader: "text" };
      });
    },
  };
}

function sourceUrls(outDir) {
  return {
    name: "workbench-source-urls",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        let text = readFileSync(args.path, "utf8");
        const file = relative(ROOT, args.path).split("\\").join("/");
        for (const redirect of WORKER_URLS.filter((r) => r.file === file)) {
          if (!text.includes(redirect.from)) {
            throw new Error(`${file} no longer starts its worker with ${redirect.from}: update WORKER_URLS in scripts/cli-bundle.mjs`);
          }
          text = text.replace(redirect.from, redirect.to);
        }
        if (!text.includes("import.meta.url") && !text.includes("__workbenchBundleUrl")) return { contents: text, loader: "ts" };
        const fromBundle = relative(outDir, args.path).split("\\").join("/");
        text = text.replaceAll("import.meta.url", "__workbenchSourceUrl");
        // Declarations after the imports would do as well; first is simplest (imports are hoisted anyway).
        const prelude = `const __workbenchBundleUrl = import.meta.url; const __workbenchSourceUrl = new URL(${JSON.stringify(fromBundle)}, __workbenchBundleUrl).href;\n`;
        return { contents: prelude + text, loader: "ts" };
      });
    },
  };
}

async function build() {
  const { build: esbuild } = await import("esbuild");
  mkdirSync(CACHE, { recursive: true });
  const dir = `build-${Date.now()}-${process.pid}`;
  const outDir = join(CACHE, dir);
  const texts = new Set();
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    metafile: true,
    logLevel: "silent",
    plugins: [sharedWithBin(), rawText(texts), sourceUrls(outDir)],
  });
  const inputs = {};
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("raw-text:"));
  for (const file of [...sources, ...texts, fileURLToPath(import.meta.url)]) {
    const path = relative(ROOT, resolve(ROOT, file)).split("\\").join("/");
    inputs[path] = stamp(path);
  }
  const temporary = `${POINTER}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ root: ROOT, dir, inputs }));
  renameSync(temporary, POINTER);
  removeOldBuilds(dir);
  return dir;
}

function removeOldBuilds(current) {
  for (const name of readdirSync(CACHE)) {
    if (!name.startsWith("build-") || name === current) continue;
    const path = join(CACHE, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > KEEP_OLD_BUILDS_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

/** The bundle's entry as a file URL, built first when a source changed since the last build. */
export async function cliBundle() {
  const pointer = readPointer();
  const dir = isFresh(pointer) ? pointer.dir : await build();
  return pathToFileURL(join(CACHE, dir, "workbench.js")).href;
}

// `node scripts/cli-bundle.mjs` (postinstall) builds it now.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = await cliBundle();
  console.log(`cli-bundle: ${relative(ROOT, fileURLToPath(url))}`);
}
