/**
 * A package and the dependency tree it needs, as Node would find it from this checkout's node_modules:
 * every file of each package (not its own nested node_modules, whose packages join only when needed),
 * keyed by its path under node_modules, so a test can copy the same tree into a runtime's workspace.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The folder Node would load `name` from, looking up node_modules from `from` as Node does. */
function findPackage(name: string, from: string, top: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === top || dir === dirname(dir)) throw new Error(`${name} is not installed where ${from} could find it (run npm ci)`);
  }
}

function filesOf(dir: string, into: Map<string, Uint8Array>, base: string): void {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules") continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) filesOf(path, into, base);
    else into.set(relative(base, path), readFileSync(path));
  }
}

/** The files of `names` and of everything they depend on, as paths relative to `projectDir`. */
export function packageTree(projectDir: string, names: readonly string[]): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    filesOf(dir, files, projectDir);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(findPackage(dependency, dir, projectDir));
  };
  for (const name of names) visit(findPackage(name, projectDir, projectDir));
  return files;
}
