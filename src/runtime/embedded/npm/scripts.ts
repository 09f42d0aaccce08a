import { dirname, join } from "pathe";
import { NpmError } from "./errors.js";
import type { PackageManifest } from "./manifest.js";
import type { OutputStream } from "../../types.js";

/** How a script runs: the embedded shell's own exec (so `&&`, pipes and node_modules/.bin all work). */
export type ShellExec = (
  command: string,
  options: { cwd: string; env: Record<string, string> },
) => Promise<{ stdout: string; stderr: string; exitCode: number }>;

/** Where npm's own lines go at once (a live npm, live-output.ts) rather than into its result. */
export type OutputWriter = (stream: OutputStream, text: string) => void;

/** Scripts npm runs by name in a package's lifecycle; `npm run` lists them apart from the others. */
const lifecycle = new Set([
  "prepare",
  "prepublishOnly",
  "prepack",
  "postpack",
  "dependencies",
  ...["install", "publish", "restart", "start", "stop", "test", "uninstall", "version"].flatMap((name) => [
    `pre${name}`,
    name,
    `post${name}`,
  ]),
]);

/** npm's quoting of extra arguments appended to a script: single quotes when the shell would split or expand it. */
export function shellQuote(arg: string): string {
  if (arg !== "" && /^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Each folder's node_modules/.bin from the project up to /, nearest first, as npm puts them on PATH. */
export function binPath(projectDir: string, path: string | undefined): string {
  const dirs: string[] = [];
  for (let dir = projectDir; ; dir = dirname(dir)) {
    dirs.push(join(dir, "node_modules/.bin"));
    if (dir === dirname(dir)) break;
  }
  return [...dirs, ...(path ? [path] : [])].join(":");
}

/** npm's `npm_package_*` variables: name, version, and the config, engines and bin maps flattened. */
function packageEnv(manifest: PackageManifest, packageJson: string): Record<string, string> {
  const env: Record<string, string> = { npm_package_json: packageJson };
  if (manifest.name) env.npm_package_name = manifest.name;
  if (manifest.version) env.npm_package_version = manifest.version;
  const flatten = (prefix: string, value: unknown) => {
    if (value === null || value === undefined) return;
    if (typeof value === "object") {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>))
        flatten(`${prefix}_${key.replace(/[^a-zA-Z0-9_]/g, "_")}`, inner);
    } else env[prefix] = String(value);
  };
  flatten("npm_package_config", manifest.config);
  flatten("npm_package_engines", manifest.engines);
  if (manifest.bin && typeof manifest.bin === "object") flatten("npm_package_bin", manifest.bin);
  return env;
}

/** `npm run` with no name: the lifecycle scripts, then the others, as npm lists them. */
export function listScripts(manifest: PackageManifest): string {
  const scripts = Object.entries(manifest.scripts ?? {});
  if (scripts.length === 0) return "";
  const id = `${manifest.name ?? ""}@${manifest.version ?? ""}`;
  const block = (entries: [string, string][]) => entries.map(([name, command]) => `  ${name}\n    ${command}\n`).join("");
  const own = scripts.filter(([name]) => lifecycle.has(name));
  const others = scripts.filter(([name]) => !lifecycle.has(name));
  let text = "";
  if (own.length > 0) text += `Lifecycle scripts included in ${id}:\n${block(own)}`;
  if (others.length > 0) text += `${own.length > 0 ? "available" : `Scripts available in ${id}`} via \`npm run\`:\n${block(others)}`;
  return text;
}

export interface RunScriptOptions {
  projectDir: string;
  manifest: PackageManifest;
  name: string;
  args: string[];
  env: Record<string, string>;
  exec: ShellExec;
  silent: boolean;
  write?: OutputWriter;
}

/**
 * `npm run <name> [-- args]`: `pre<name>`, the script with the arguments appended, then `post<name>`, each
 * with npm's banner, variables and PATH; the first that fails stops the rest and gives its exit code.
 */
export async function runScript(options: RunScriptOptions): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { manifest, name, projectDir } = options;
  const scripts = manifest.scripts ?? {};
  let command = scripts[name];
  if (command === undefined && name === "start") command = "node server.js";
  if (command === undefined) {
    if (name === "restart") {
      // npm's restart is stop then start when there is no restart script.
      const stop = scripts.stop !== undefined ? await runScript({ ...options, name: "stop" }) : { stdout: "", stderr: "", exitCode: 0 };
      if (stop.exitCode !== 0) return stop;
      const start = await runScript({ ...options, name: "start" });
      return { stdout: stop.stdout + start.stdout, stderr: stop.stderr + start.stderr, exitCode: start.exitCode };
    }
    throw new NpmError(undefined, [`Missing script: "${name}"`, "", "To see a list of scripts, run:", "  npm run"]);
  }
  const steps: [string, string][] = [];
  if (scripts[`pre${name}`] !== undefined) steps.push([`pre${name}`, scripts[`pre${name}`]!]);
  // The banner shows the arguments as typed; the shell gets them quoted, so each stays one word.
  steps.push([name, options.args.length > 0 ? `${command} ${options.args.map(shellQuote).join(" ")}` : command]);
  const shown = options.args.length > 0 ? `${command} ${options.args.join(" ")}` : command;
  if (scripts[`post${name}`] !== undefined) steps.push([`post${name}`, scripts[`post${name}`]!]);
  let stdout = "";
  let stderr = "";
  const base = packageEnv(manifest, join(projectDir, "package.json"));
  for (const [event, script] of steps) {
    if (!options.silent) {
      const banner = `\n> ${manifest.name ?? ""}${manifest.version ? `@${manifest.version}` : ""} ${event}\n> ${event === name ? shown : script}\n\n`;
      if (options.write) options.write("stdout", banner);
      else stdout += banner;
    }
    const env = {
      ...options.env,
      ...base,
      npm_lifecycle_event: event,
      npm_lifecycle_script: script,
      npm_command: name === "test" || name === "start" || name === "stop" || name === "restart" ? name : "run-script",
      INIT_CWD: options.env.INIT_CWD ?? options.env.PWD ?? projectDir,
      PATH: binPath(projectDir, options.env.PATH),
    };
    const result = await options.exec(script, { cwd: projectDir, env });
    stdout += result.stdout;
    stderr += result.stderr;
    if (result.exitCode !== 0) return { stdout, stderr, exitCode: result.exitCode };
  }
  return { stdout, stderr, exitCode: 0 };
}
