import { parse as parseIni } from "ini";
import { join } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";

const DEFAULT_REGISTRY = "https://registry.npmjs.org/";
/** Outside the workspace, so the file tree never shows it; in the page it lives in the same IndexedDB store. */
const DEFAULT_CACHE = "/var/cache/npm";

/** The settings this npm reads, from flags, `npm_config_*` variables and `.npmrc` files, in npm's order. */
export interface NpmConfig {
  registry: string;
  /** `@scope:registry` entries, by scope (with its @). */
  scopeRegistries: Record<string, string>;
  cache: string;
  /** Never touch the network: only the cache answers. */
  offline: boolean;
  /** Write `resolved` URLs into package-lock.json (npm's default). */
  recordResolved: boolean;
  saveExact: boolean;
  savePrefix: string;
  omitDev: boolean;
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

function truthy(value: unknown): boolean {
  return value === true || value === "true" || value === "1" || value === "";
}

/** npm expands `${VAR}` in .npmrc values from the environment. */
function expand(value: string, env: Map<string, string>): string {
  return value.replace(/\$\{([^}]+)\}/g, (_, name: string) => env.get(name) ?? "");
}

async function readNpmrc(files: WorkspaceFs, path: string, env: Map<string, string>): Promise<Record<string, string>> {
  let text: string;
  try {
    text = new TextDecoder().decode(await files.readFile(path));
  } catch {
    return {};
  }
  const parsed = parseIni(text) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed))
    if (typeof value === "string" || typeof value === "boolean") out[key] = expand(String(value), env);
  return out;
}

/**
 * The settings in force for a project at `projectDir`: `--flag` values first, then `npm_config_*`
 * variables (any case), then the project's `.npmrc`, then `$HOME/.npmrc`.
 */
export async function loadConfig(
  files: WorkspaceFs,
  projectDir: string,
  env: Map<string, string>,
  flags: Record<string, string | boolean>,
): Promise<NpmConfig> {
  const home = env.get("HOME");
  const user = home ? await readNpmrc(files, join(home, ".npmrc"), env) : {};
  const project =
    home && join(home, ".npmrc") === join(projectDir, ".npmrc") ? {} : await readNpmrc(files, join(projectDir, ".npmrc"), env);
  const fromEnv: Record<string, string> = {};
  for (const [name, value] of env) {
    const match = /^npm_config_(.+)$/i.exec(name);
    if (match) fromEnv[match[1]!.toLowerCase().replace(/_/g, "-")] = value;
  }
  const merged: Record<string, string | boolean> = { ...user, ...project, ...fromEnv, ...flags };
  const scopeRegistries: Record<string, string> = {};
  for (const [key, value] of Object.entries(merged)) {
    const match = /^(@[^:]+):registry$/.exec(key);
    if (match && typeof value === "string") scopeRegistries[match[1]!] = withSlash(value);
  }
  const omit = String(merged.omit ?? "");
  return {
    registry: withSlash(typeof merged.registry === "string" && merged.registry ? merged.registry : DEFAULT_REGISTRY),
    scopeRegistries,
    cache: typeof merged.cache === "string" && merged.cache ? merged.cache : DEFAULT_CACHE,
    offline: truthy(merged.offline ?? false),
    recordResolved: !truthy(merged["omit-lockfile-registry-resolved"] ?? false),
    saveExact: truthy(merged["save-exact"] ?? false),
    savePrefix: typeof merged["save-prefix"] === "string" ? merged["save-prefix"] : "^",
    omitDev: omit.split(",").includes("dev") || truthy(merged.production ?? false) || String(merged.only ?? "").startsWith("prod"),
  };
}

/** The registry that serves `name` (a scoped name may have its own). */
export function registryFor(config: NpmConfig, name: string): string {
  const scope = name.startsWith("@") ? name.slice(0, name.indexOf("/")) : undefined;
  return (scope && config.scopeRegistries[scope]) || config.registry;
}
