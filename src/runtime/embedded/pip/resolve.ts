import { maxSatisfying, satisfies, validRange } from "@renovatebot/pep440";
import { PYTHON_FULL_VERSION } from "./environment.js";
import { PipError } from "./errors.js";
import type { IndexClient, IndexFile } from "./index-client.js";
import type { CoreMetadata } from "./metadata.js";
import { isPureWheel, normalizeName, parseWheelFilename } from "./names.js";
import { markerApplies, parseRequirement, type Requirement } from "./requirement.js";
import type { InstalledDist } from "./site-packages.js";
import { readWheel, type WheelContents } from "./wheel.js";

/** What the resolver settled on for one project. */
export type Choice =
  | { kind: "installed"; key: string; name: string; version: string; metadata: CoreMetadata }
  | {
      kind: "download";
      key: string;
      name: string;
      version: string;
      metadata: CoreMetadata;
      file: IndexFile;
      wheel: WheelContents;
      requested: boolean;
      /** The installed version this one replaces. */
      replaces?: InstalledDist;
    };

export interface ResolveOptions {
  client: IndexClient;
  /** What is installed now, by normal name (empty for `--target`, which installs afresh). */
  installed: Map<string, InstalledDist>;
  /** `--upgrade`: what was asked for by name is brought to its newest version even when installed. */
  upgrade: boolean;
  noDeps: boolean;
  log(line: string): void;
}

function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function fits(version: string, specifier: string): boolean {
  if (specifier === "") return true;
  try {
    return satisfies(version, specifier, { prereleases: true });
  } catch {
    return false;
  }
}

function pythonFits(file: IndexFile): boolean {
  if (!file.requiresPython) return true;
  const specifier = file.requiresPython.replace(/\s+/g, "");
  return !validRange(specifier) || fits(PYTHON_FULL_VERSION, specifier);
}

/** Picks the newest file for the requirement: pure-Python wheels only, or an error that says why not. */
export function pickFile(name: string, files: IndexFile[], specifier: string): IndexFile {
  const key = normalizeName(name);
  const parsed = files
    .map((file) => ({ file, wheel: parseWheelFilename(file.filename) }))
    .filter(({ wheel }) => !wheel || normalizeName(wheel.distribution) === key);
  const pinned = /^===?[^,*]+$/.test(specifier);
  const usable = parsed.filter(({ file, wheel }) => wheel && isPureWheel(wheel) && pythonFits(file) && (!file.yanked || pinned));
  const versions = [...new Set(usable.map(({ wheel }) => wheel!.version))];
  const best = specifier === "" ? maxSatisfying(versions, ">=0") : maxSatisfying(versions, specifier);
  if (best) {
    const ofBest = usable.filter(({ wheel }) => wheel!.version === best);
    return (ofBest.find(({ wheel }) => wheel!.python.includes("py3")) ?? ofBest[0]!).file;
  }
  const matching = parsed.filter(({ file, wheel }) => {
    const version = wheel?.version ?? /-(\d[^-]*?)(?:\.tar\.gz|\.zip|\.tar\.bz2)$/.exec(file.filename)?.[1];
    return version !== undefined && fits(version, specifier);
  });
  const wanted = `${name}${specifier}`;
  if (matching.length > 0) {
    const shown = matching.slice(0, 4).map(({ file }) => file.filename);
    const tooNew = matching.every(({ file, wheel }) => wheel && isPureWheel(wheel) && !pythonFits(file));
    throw new PipError(
      tooNew
        ? [
            `${wanted}: every matching wheel requires a Python other than ${PYTHON_FULL_VERSION} (${matching[0]!.file.requiresPython}).`,
            `No matching distribution found for ${wanted}`,
          ]
        : [
            `${name} has no pure-Python wheel (py3-none-any) on the index for ${specifier || "any version"}: only ${shown.join(", ")}${matching.length > shown.length ? ", ..." : ""}.`,
            "This pip installs pure-Python wheels only: compiled code (C extensions) and source builds cannot run here.",
            `Install another version of ${name} that ships a py3-none-any wheel, or use a pure-Python alternative.`,
          ],
    );
  }
  const all = [...new Set(parsed.flatMap(({ wheel }) => (wheel ? [wheel.version] : [])))];
  throw new PipError([
    `Could not find a version that satisfies the requirement ${wanted} (from versions: ${all.join(", ") || "none"})`,
    `No matching distribution found for ${wanted}`,
  ]);
}

/**
 * Resolves what to install, breadth first: each project gets the newest pure-Python wheel that meets every
 * requirement on it seen so far, and its dependencies (Requires-Dist, markers judged for Pyodide's CPython)
 * are followed. A later requirement that the chosen version does not meet is a conflict, reported with both
 * sides (there is no backtracking). Wheels are downloaded and checked on the way, so a bad hash or a
 * broken wheel stops everything before anything is written.
 */
export async function resolve(requirements: Requirement[], options: ResolveOptions): Promise<Choice[]> {
  const chosen = new Map<string, Choice>();
  const constraints = new Map<string, Array<{ requirement: Requirement; from?: string }>>();
  const extrasDone = new Map<string, Set<string>>();
  const edges = new Map<string, string[]>();
  const top = requirements.map((requirement) => normalizeName(requirement.name));
  const queue: Array<{ requirement: Requirement; from?: string }> = requirements.map((requirement) => ({ requirement }));

  const follow = (choice: Choice, extras: string[], onlyNew: Set<string> | undefined) => {
    if (options.noDeps) return;
    for (const text of choice.metadata.all("Requires-Dist")) {
      const dependency = parseRequirement(text);
      if (!markerApplies(dependency, extras)) continue;
      if (onlyNew && markerApplies(dependency, [...onlyNew])) continue;
      queue.push({ requirement: dependency, from: choice.name });
      edges.set(choice.key, [...(edges.get(choice.key) ?? []), normalizeName(dependency.name)]);
    }
  };

  while (queue.length > 0) {
    const { requirement, from } = queue.shift()!;
    const key = normalizeName(requirement.name);
    const seen = [...(constraints.get(key) ?? []), { requirement, from }];
    constraints.set(key, seen);
    const specifier = seen
      .map((entry) => entry.requirement.specifier)
      .filter(Boolean)
      .join(",");
    const existing = chosen.get(key);
    if (existing) {
      if (!fits(existing.version, requirement.specifier)) {
        const others = seen.slice(0, -1).map((entry) => `${entry.requirement.text}${entry.from ? ` (from ${entry.from})` : ""}`);
        throw new PipError([
          `Cannot install: ${requirement.text}${from ? ` (from ${from})` : ""} conflicts with ${existing.name} ${existing.version}, chosen for ${others.join(", ")}.`,
          "Loosen one of the requirements, or name a version that meets them all.",
        ]);
      }
      const done = extrasDone.get(key)!;
      const added = requirement.extras.filter((extra) => !done.has(extra));
      if (added.length > 0) {
        follow(existing, added, new Set(done));
        for (const extra of added) done.add(extra);
      }
      continue;
    }
    const installed = options.installed.get(key);
    const upgrade = options.upgrade && top.includes(key);
    if (installed && !upgrade && fits(installed.metadata.version, specifier)) {
      options.log(`Requirement already satisfied: ${requirement.text}${from ? ` (from ${from})` : ""} (${installed.metadata.version})`);
      const choice: Choice = {
        kind: "installed",
        key,
        name: installed.metadata.name,
        version: installed.metadata.version,
        metadata: installed.metadata,
      };
      chosen.set(key, choice);
      extrasDone.set(key, new Set(requirement.extras));
      follow(choice, requirement.extras, undefined);
      continue;
    }
    options.log(`Collecting ${requirement.text}${from ? ` (from ${from})` : ""}`);
    const file = pickFile(requirement.name, await options.client.project(requirement.name), specifier);
    const version = parseWheelFilename(file.filename)!.version;
    if (installed && installed.metadata.version === version) {
      // --upgrade found nothing newer: what is installed stays.
      options.log(`Requirement already satisfied: ${requirement.text} (${version})`);
      const choice: Choice = { kind: "installed", key, name: installed.metadata.name, version, metadata: installed.metadata };
      chosen.set(key, choice);
      extrasDone.set(key, new Set(requirement.extras));
      follow(choice, requirement.extras, undefined);
      continue;
    }
    const bytes = await options.client.download(file);
    options.log(`  Downloading ${file.filename} (${sizeText(bytes.byteLength)})`);
    const wheel = readWheel(bytes, file.filename, requirement.name);
    const choice: Choice = {
      kind: "download",
      key,
      name: wheel.metadata.name || requirement.name,
      version,
      metadata: wheel.metadata,
      file,
      wheel,
      requested: top.includes(key),
      replaces: installed,
    };
    chosen.set(key, choice);
    extrasDone.set(key, new Set(requirement.extras));
    follow(choice, requirement.extras, undefined);
  }

  // Dependencies before what needs them, as pip installs them.
  const order: Choice[] = [];
  const visited = new Set<string>();
  const visit = (key: string) => {
    if (visited.has(key)) return;
    visited.add(key);
    for (const child of edges.get(key) ?? []) visit(child);
    const choice = chosen.get(key);
    if (choice) order.push(choice);
  };
  for (const key of top) visit(key);
  return order;
}
