import { defineCommand, type Command } from "just-bash/browser";
import { resolve as resolvePath } from "pathe";
import { errorMessage } from "../../../base/error-message.js";
import { FETCH_PROXY_VARIABLE, fetchWithProxy } from "../npm/page-fetch.js";
import type { WorkspaceFs } from "../workspace-fs.js";
import { chooseIndexUrl, DEFAULT_INDEX_URL } from "./config.js";
import { PYTHON_VERSION } from "./environment.js";
import { PipError } from "./errors.js";
import { IndexClient, type PipFetch } from "./index-client.js";
import { normalizeName } from "./names.js";
import { markerApplies, parseRequirement, type Requirement } from "./requirement.js";
import { resolve } from "./resolve.js";
import { findInstalled, findSitePackages, installWheel, listInstalled, uninstallDist, type InstalledDist } from "./site-packages.js";

/** This pip's own version, so `pip --version` never passes for a real pip release. */
const EMBEDDED_PIP_VERSION = "0.1.0-embedded";

export interface PipCommandOptions {
  /** The workspace root: a new `.venv` goes there. */
  root: string;
  /** How indexes are reached; a plain fetch when absent. $WORKBENCH_FETCH_PROXY, when set, is the fallback. */
  fetch?: PipFetch;
  /** Asked before each fetch with the index's URL (not the proxy's); a rejection refuses it. */
  gate?: (url: string) => Promise<void>;
  /** Whether the network is there at all (the page's navigator.onLine); assumed when absent. */
  online?: () => boolean;
}

/** A page or worker knows when it is offline; Node has no such flag and is taken as online. */
const browserOnline = () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine !== false;

type Result = { stdout: string; stderr: string; exitCode: number };

const USAGE = `Usage:
  pip <command> [options]

The embedded shell's pip (${EMBEDDED_PIP_VERSION}) installs pure-Python wheels (py3-none-any) for python3 here.
Commands:
  install        Install packages: NAME, 'NAME>=1.0', NAME[extra], -r requirements.txt.
                 Options: -U/--upgrade, --no-deps, -t/--target DIR, -i/--index-url URL.
  uninstall      Uninstall packages.
  list           List installed packages (--format columns|freeze|json).
  freeze         Installed packages as NAME==VERSION.
  show           Information about installed packages.

Packages go into the nearest .venv/lib/python${PYTHON_VERSION}/site-packages from the current folder up (a new .venv
at the workspace root when there is none), which python3 puts on sys.path. The index is PyPI unless
--index-url, PIP_INDEX_URL or index-url in a pip.conf says otherwise.
`;

/** Flags that take a value when written apart (`-t dir`, `--index-url URL`). */
const valued = new Set([
  "path",
  "t",
  "target",
  "i",
  "index-url",
  "r",
  "requirement",
  "format",
  "extra-index-url",
  "f",
  "find-links",
  "c",
  "constraint",
  "python-version",
  "platform",
]);

interface Parsed {
  positionals: string[];
  flags: Map<string, string | true>;
  requirementFiles: string[];
}

function parseArgs(argv: string[]): Parsed {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const requirementFiles: string[] = [];
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at]!;
    let name: string | undefined;
    let value: string | true = true;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      if (eq >= 0) value = arg.slice(eq + 1);
    } else if (/^-[A-Za-z]/.test(arg)) {
      name = arg[1]!;
      if (arg.length > 2) value = valued.has(name) ? arg.slice(2) : true;
      // Bundled letters (-qq, -Uq) carry no values.
      if (arg.length > 2 && !valued.has(name)) for (const letter of arg.slice(2)) flags.set(letter, true);
    }
    if (name === undefined) {
      positionals.push(arg);
      continue;
    }
    if (value === true && valued.has(name)) {
      const next = argv[at + 1];
      if (next === undefined) throw new PipError([`option ${arg} requires an argument`], 2);
      value = next;
      at++;
    }
    if (name === "r" || name === "requirement") requirementFiles.push(value as string);
    else flags.set(name, value);
  }
  return { positionals, flags, requirementFiles };
}

/** pip options this pip does not act on: said, so nobody thinks they took effect. */
const IGNORED = [
  "extra-index-url",
  "c",
  "constraint",
  "pre",
  "user",
  "find-links",
  "f",
  "no-index",
  "require-hashes",
  "python-version",
  "platform",
];

const flag = (parsed: Parsed, ...names: string[]) => names.map((name) => parsed.flags.get(name)).find((value) => value !== undefined);

/** The requirements of a requirements file: one a line, comments and pip options left out. */
function requirementsFromFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("-"));
}

function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join(" ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * `pip` and `pip3` for the embedded shell, beside python3: installs pure-Python wheels from a PEP 503/691
 * index into the workspace's `.venv` (or `--target`), through the same network rules as npm (the
 * webfetch permission's gate, the page's fetch proxy), and lists, shows and uninstalls what it installed.
 * `python3 -m pip` reaches the same command (python/command.ts).
 */
export function createPipCommands(files: WorkspaceFs, options: PipCommandOptions): Command[] {
  const fetchImpl: PipFetch = options.fetch ?? ((url, init) => fetch(url, init));

  async function pip(argv: string[], cwd: string, env: Map<string, string>, signal: AbortSignal | undefined): Promise<Result> {
    const parsed = parseArgs(argv);
    if (flag(parsed, "version", "V"))
      return { stdout: `pip ${EMBEDDED_PIP_VERSION} (python ${PYTHON_VERSION}, pure-Python wheels only)\n`, stderr: "", exitCode: 0 };
    const [command, ...names] = parsed.positionals;
    if (!command || command === "help" || flag(parsed, "help", "h")) return { stdout: USAGE, stderr: "", exitCode: command ? 0 : 1 };
    const target = flag(parsed, "target", "t") ?? flag(parsed, "path");
    const site = typeof target === "string" ? resolvePath(cwd, target) : await findSitePackages(files, cwd, options.root);
    const quiet = flag(parsed, "quiet", "q") !== undefined;
    switch (command) {
      case "install":
        return install(parsed, names, cwd, env, site, quiet, signal);
      case "uninstall":
        return uninstall(names, site, quiet);
      case "list": {
        const format = flag(parsed, "format");
        return list(site, format === "freeze" || format === "json" ? format : "columns");
      }
      case "freeze":
        return list(site, "freeze");
      case "show":
        return show(names, site);
      default:
        throw new PipError([`unknown command "${command}": this pip offers install, uninstall, list, freeze and show.`]);
    }
  }

  async function install(
    parsed: Parsed,
    names: string[],
    cwd: string,
    env: Map<string, string>,
    site: string,
    quiet: boolean,
    signal: AbortSignal | undefined,
  ): Promise<Result> {
    const texts = [...names];
    for (const file of parsed.requirementFiles) {
      const bytes = await files.readFile(resolvePath(cwd, file)).catch(() => {
        throw new PipError([`Could not open requirements file: [Errno 2] No such file or directory: '${file}'`]);
      });
      texts.push(...requirementsFromFile(new TextDecoder().decode(bytes)));
    }
    if (texts.length === 0) throw new PipError(['You must give at least one requirement to install (see "pip help")']);
    const requirements: Requirement[] = texts.map(parseRequirement);
    const indexFlag = flag(parsed, "index-url", "i");
    const indexUrl = await chooseIndexUrl(files, {
      flag: typeof indexFlag === "string" ? indexFlag : undefined,
      env,
      cwd,
      root: options.root,
    });
    const gate = options.gate;
    const proxied = fetchWithProxy(fetchImpl, env.get(FETCH_PROXY_VARIABLE) || undefined);
    const online = options.online ?? browserOnline;
    // Checked at the first fetch, not before: what is installed already needs no network.
    const client = new IndexClient(
      indexUrl,
      async (url, init) => {
        if (!online())
          throw new PipError([
            "You are offline: pip install fetches packages from an index, and the network is not there.",
            "Connect and run it again; packages already in .venv still import.",
          ]);
        try {
          await gate?.(url);
        } catch (refusal) {
          throw new PipError([`${errorMessage(refusal)}: nothing was fetched or installed.`]);
        }
        return proxied(url, init);
      },
      signal,
    );
    const out: string[] = [];
    const log = (line: string) => {
      if (!quiet) out.push(line);
    };
    if (client.indexUrl !== DEFAULT_INDEX_URL) log(`Looking in indexes: ${client.indexUrl}`);
    const installed = new Map<string, InstalledDist>(
      (await listInstalled(files, site)).map((dist) => [normalizeName(dist.metadata.name), dist]),
    );
    const choices = await resolve(requirements, {
      client,
      installed,
      upgrade: flag(parsed, "upgrade", "U") !== undefined,
      noDeps: flag(parsed, "no-deps") !== undefined,
      log,
    });
    const fresh = choices.flatMap((choice) => (choice.kind === "download" ? [choice] : []));
    const warnings = IGNORED.filter((name) => parsed.flags.has(name)).map(
      (name) => `WARNING: ${name.length === 1 ? "-" : "--"}${name} is not supported by this pip and was ignored.\n`,
    );
    if (fresh.length > 0) {
      log(`Installing collected packages: ${fresh.map((choice) => choice.name).join(", ")}`);
      for (const choice of fresh) {
        if (choice.replaces) {
          log(`  Attempting uninstall: ${choice.replaces.metadata.name}`);
          log(`    Found existing installation: ${choice.replaces.metadata.name} ${choice.replaces.metadata.version}`);
          await uninstallDist(files, site, choice.replaces);
          log(`    Successfully uninstalled ${choice.replaces.metadata.name}-${choice.replaces.metadata.version}`);
        }
        const skipped = await installWheel(files, site, choice.wheel, choice.requested);
        if (skipped.length > 0)
          warnings.push(
            `WARNING: ${choice.name} ${choice.version}: ${skipped.length} file(s) of its .data (scripts, headers, data) were not installed: this pip has no place for them (${skipped.slice(0, 3).join(", ")}).\n`,
          );
      }
      log(`Successfully installed ${fresh.map((choice) => `${choice.name}-${choice.version}`).join(" ")}`);
    }
    return { stdout: out.map((line) => `${line}\n`).join(""), stderr: warnings.join(""), exitCode: 0 };
  }

  async function uninstall(names: string[], site: string, quiet: boolean): Promise<Result> {
    if (names.length === 0) throw new PipError(['You must give at least one requirement to uninstall (see "pip help")']);
    const out: string[] = [];
    const err: string[] = [];
    for (const name of names) {
      const dist = await findInstalled(files, site, parseRequirement(name).name);
      if (!dist) {
        err.push(`WARNING: Skipping ${name} as it is not installed.\n`);
        continue;
      }
      const label = `${dist.metadata.name}-${dist.metadata.version}`;
      out.push(`Found existing installation: ${dist.metadata.name} ${dist.metadata.version}`, `Uninstalling ${label}:`);
      const refused = await uninstallDist(files, site, dist);
      for (const path of refused) err.push(`WARNING: left ${path} alone: its RECORD names a path outside ${site}.\n`);
      out.push(`  Successfully uninstalled ${label}`);
    }
    return { stdout: quiet ? "" : out.map((line) => `${line}\n`).join(""), stderr: err.join(""), exitCode: 0 };
  }

  async function list(site: string, format: "columns" | "freeze" | "json"): Promise<Result> {
    const dists = await listInstalled(files, site);
    if (format === "freeze")
      return { stdout: dists.map((dist) => `${dist.metadata.name}==${dist.metadata.version}\n`).join(""), stderr: "", exitCode: 0 };
    if (format === "json")
      return {
        stdout: `${JSON.stringify(dists.map((dist) => ({ name: dist.metadata.name, version: dist.metadata.version })))
          .replaceAll('":"', '": "')
          .replaceAll('","', '", "')
          .replaceAll("},{", "}, {")}\n`,
        stderr: "",
        exitCode: 0,
      };
    if (dists.length === 0) return { stdout: "", stderr: "", exitCode: 0 };
    const rows = [["Package", "Version"], ...dists.map((dist) => [dist.metadata.name, dist.metadata.version])];
    const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
    rows.splice(
      1,
      0,
      widths.map((width) => "-".repeat(width)),
    );
    return { stdout: `${columns(rows)}\n`, stderr: "", exitCode: 0 };
  }

  async function show(names: string[], site: string): Promise<Result> {
    if (names.length === 0) throw new PipError(["Please provide a package name or names."]);
    const all = await listInstalled(files, site);
    const blocks: string[] = [];
    const missing: string[] = [];
    for (const name of names) {
      const dist = all.find((candidate) => normalizeName(candidate.metadata.name) === normalizeName(name));
      if (!dist) {
        missing.push(name);
        continue;
      }
      const key = normalizeName(dist.metadata.name);
      const requires = dist.metadata
        .all("Requires-Dist")
        .map((text) => parseRequirement(text))
        .filter((requirement) => markerApplies(requirement))
        .map((requirement) => requirement.name);
      const requiredBy = all
        .filter((other) => other.metadata.all("Requires-Dist").some((text) => normalizeName(parseRequirement(text).name) === key))
        .map((other) => other.metadata.name);
      const field = (name: string) => dist.metadata.get(name) ?? "";
      blocks.push(
        [
          `Name: ${dist.metadata.name}`,
          `Version: ${dist.metadata.version}`,
          `Summary: ${field("Summary")}`,
          `Home-page: ${field("Home-page")}`,
          `Author: ${field("Author")}`,
          `Author-email: ${field("Author-email")}`,
          `License: ${field("License")}`,
          `Location: ${site}`,
          `Requires: ${[...new Set(requires)].sort().join(", ")}`,
          `Required-by: ${requiredBy.sort().join(", ")}`,
        ].join("\n"),
      );
    }
    const stderr = missing.length > 0 ? `WARNING: Package(s) not found: ${missing.join(", ")}\n` : "";
    return { stdout: blocks.length > 0 ? `${blocks.join("\n---\n")}\n` : "", stderr, exitCode: missing.length > 0 ? 1 : 0 };
  }

  const run = (argv: string[], ctx: Parameters<Command["execute"]>[1]): Promise<Result> =>
    pip(argv, resolvePath(ctx.cwd), new Map(ctx.env), ctx.signal).catch((error: unknown) => {
      if (error instanceof PipError) return { stdout: "", stderr: error.render(), exitCode: error.exitCode };
      if (ctx.signal?.aborted) return { stdout: "", stderr: "ERROR: Operation cancelled by user\n", exitCode: 1 };
      return { stdout: "", stderr: `ERROR: ${errorMessage(error)}\n`, exitCode: 1 };
    });
  return [defineCommand("pip", run), defineCommand("pip3", run)];
}
