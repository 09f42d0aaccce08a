import semver from "semver";
import { NpmError } from "./errors.js";

export type DependencyMap = Record<string, string>;

/** The fields of a package.json (or of a version in a packument) this npm reads. */
export interface PackageManifest {
  name?: string;
  version?: string;
  license?: string;
  bin?: string | Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: DependencyMap;
  devDependencies?: DependencyMap;
  optionalDependencies?: DependencyMap;
  peerDependencies?: DependencyMap;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  funding?: unknown;
  deprecated?: string;
  hasInstallScript?: boolean;
  config?: Record<string, unknown>;
  dist?: { tarball: string; integrity?: string; shasum?: string };
}

export interface Packument {
  name: string;
  "dist-tags"?: Record<string, string>;
  versions: Record<string, PackageManifest>;
}

/** A package's `bin` as a map of command name to file (a string `bin` is named after the package). */
export function binsOf(manifest: PackageManifest): Record<string, string> {
  if (!manifest.bin) return {};
  if (typeof manifest.bin === "string") return manifest.name ? { [manifest.name.split("/").at(-1)!]: manifest.bin } : {};
  return manifest.bin;
}

/** Whether a package has scripts npm would run at install (which this npm never runs). */
export function installScriptsOf(manifest: PackageManifest): string[] {
  return ["preinstall", "install", "postinstall"].filter((name) => manifest.scripts?.[name]);
}

/**
 * The version npm picks for `spec` (a range, a version or a dist-tag): the `latest` tag when it fits the
 * range (as npm-pick-manifest does), else the highest version that does, preferring ones not deprecated.
 */
export function pickVersion(packument: Packument, spec: string): PackageManifest | undefined {
  const tags = packument["dist-tags"] ?? {};
  const wanted = spec === "" ? "latest" : spec;
  const tagged = tags[wanted];
  if (tagged !== undefined) return packument.versions[tagged];
  const range = semver.validRange(wanted, { loose: true });
  if (range === null) return undefined;
  const latest = tags.latest;
  if (latest && packument.versions[latest] && semver.satisfies(latest, range, { loose: true })) return packument.versions[latest];
  const versions = Object.keys(packument.versions).filter((version) => semver.valid(version, { loose: true }));
  const fitting = versions.filter((version) => semver.satisfies(version, range, { loose: true }));
  const live = fitting.filter((version) => !packument.versions[version]!.deprecated);
  const best = semver.maxSatisfying(live.length > 0 ? live : fitting, range, { loose: true });
  return best === null ? undefined : packument.versions[best];
}

/** Whether an installed version satisfies what a dependent asks for (a tag is satisfied only by its version). */
export function satisfies(version: string, spec: string): boolean {
  if (spec === "" || spec === "*" || spec === "latest") return true;
  const range = semver.validRange(spec, { loose: true });
  return range !== null && semver.satisfies(version, range, { loose: true, includePrerelease: false });
}

/** Specs this npm can resolve: registry ranges, versions and tags. Others (git, file:, URLs) say so. */
export function checkSpec(name: string, spec: string): void {
  if (/^(file:|link:|git\+|git:|github:|https?:|npm:|workspace:)/.test(spec) || /^[^@]+\/[^@]+$/.test(spec)) {
    throw new NpmError("EUNSUPPORTEDPROTOCOL", [
      `${name}@${spec}: the embedded npm installs from a registry only (ranges, versions and tags), not from "${spec}".`,
    ]);
  }
}

const packageName = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

/**
 * Whether `name` can be a package's folder under node_modules: npm's name rules, which also keep a
 * name from the registry or a lockfile (`../x`, `a/b/c`) from pointing anywhere else.
 */
export function isValidPackageName(name: string): boolean {
  return (
    name.length <= 214 &&
    packageName.test(name) &&
    !name.split("/").some((part) => part === "." || part === ".." || part === "@.." || part === "@.")
  );
}

/** Throws EINVALIDPACKAGENAME for a name that is not one. */
export function checkPackageName(name: string, where: string): void {
  if (!isValidPackageName(name))
    throw new NpmError("EINVALIDPACKAGENAME", [`Invalid package name "${name}" ${where}; nothing was installed.`]);
}

/** Splits `name@spec` (with a scope's leading @) into its parts. */
export function parsePackageArg(arg: string): { name: string; spec: string } {
  const at = arg.indexOf("@", arg.startsWith("@") ? 1 : 0);
  const name = at < 0 ? arg : arg.slice(0, at);
  const spec = at < 0 ? "" : arg.slice(at + 1);
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name))
    throw new NpmError("EINVALIDPACKAGENAME", [`Invalid package name "${name}" in "${arg}".`]);
  return { name, spec };
}
