import { basename } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";
import { NpmError } from "./errors.js";
import { readProject, writeProject } from "./project.js";

/** npm's default package name for a folder: lower case, without a `.js` or `-js` suffix. */
function defaultName(dir: string): string {
  return basename(dir)
    .toLowerCase()
    .replace(/[.-]js$/, "")
    .replace(/[^a-z0-9._~-]+/g, "-");
}

/**
 * `npm init -y`: a package.json with npm's defaults (what is already in one is kept), and npm's
 * "Wrote to" message. Without -y npm asks questions, which this shell cannot.
 */
export async function init(files: WorkspaceFs, dir: string, yes: boolean): Promise<string> {
  if (!yes)
    throw new NpmError(undefined, ["npm init asks questions the embedded shell cannot answer: run `npm init -y` and edit package.json."]);
  const project = await readProject(files, dir, { create: true });
  project.manifest = {
    name: defaultName(dir),
    version: "1.0.0",
    description: "",
    main: "index.js",
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [],
    author: "",
    license: "ISC",
    type: "commonjs",
    ...project.manifest,
  };
  await writeProject(files, project);
  return `Wrote to ${dir}/package.json:\n\n${JSON.stringify(project.manifest, null, 2)}\n\n\n`;
}
