import { dirname, join } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";
import { NpmError } from "./errors.js";
import type { PackageManifest } from "./manifest.js";
import { errorMessage } from "../../../base/error-message.js";

/** A project's package.json, with the layout it was written in so a rewrite keeps it. */
export interface ProjectFile {
  dir: string;
  manifest: PackageManifest & Record<string, unknown>;
  indent: string;
  newline: string;
}

async function isFile(files: WorkspaceFs, path: string): Promise<boolean> {
  try {
    return (await files.stat(path)).type === "file";
  } catch {
    return false;
  }
}

/** The nearest folder from `cwd` upwards holding a package.json (npm's prefix), or `cwd` itself when none does. */
export async function findProjectDir(files: WorkspaceFs, cwd: string): Promise<string> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (await isFile(files, join(dir, "package.json"))) return dir;
    if (dir === dirname(dir)) return cwd;
  }
}

export async function readProject(files: WorkspaceFs, dir: string, options: { create?: boolean } = {}): Promise<ProjectFile> {
  const path = join(dir, "package.json");
  let text: string;
  try {
    text = new TextDecoder().decode(await files.readFile(path));
  } catch {
    if (options.create) return { dir, manifest: {}, indent: "  ", newline: "\n" };
    throw new NpmError("ENOENT", [`Could not read package.json: no such file: ${path}`, "Run npm init, or cd into the project's folder."]);
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new NpmError("EJSONPARSE", [
      `Invalid package.json at ${path}: ${errorMessage(error)}`,
      "Fix the JSON and run the command again.",
    ]);
  }
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    throw new NpmError("EJSONPARSE", [`${path} must hold a JSON object.`]);
  }
  const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? "  ";
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  return { dir, manifest: manifest as ProjectFile["manifest"], indent, newline };
}

export async function writeProject(files: WorkspaceFs, project: ProjectFile): Promise<void> {
  const text = `${JSON.stringify(project.manifest, null, project.indent)}\n`.replace(/\n/g, project.newline);
  await files.writeFile(join(project.dir, "package.json"), text);
}
