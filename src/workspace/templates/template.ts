/**
 * A template: a small starting project the first screen writes into the workspace, in a folder of its
 * own, and whose main file it opens. The templates themselves are plain data, one file each beside this one.
 */
import { isRuntimeError } from "../../runtime/errors.js";
import type { Runtime } from "../../runtime/types.js";
import { importFiles } from "../transfer.js";

export interface Template {
  /** Also the folder it is written to, under the workspace's root. */
  id: string;
  title: string;
  /** One line on what it is and how to run it. */
  summary: string;
  /** The file opened once it is written, relative to its folder. */
  main: string;
  /** Path relative to the folder → text. */
  files: Record<string, string>;
}

interface AddedTemplate {
  folder: string;
  main: string;
  /** False when a file or folder of that name was already there: nothing was written. */
  created: boolean;
}

/** Writes `template` into its folder, unless that name is taken (what the person has is never replaced). */
export async function addTemplate(runtime: Runtime, template: Template): Promise<AddedTemplate> {
  const folder = `${runtime.root}/${template.id}`;
  const main = `${folder}/${template.main}`;
  const exists = await runtime.fs.lstat(folder).then(
    () => true,
    (error: unknown) => {
      if (isRuntimeError(error, "ENOENT")) return false;
      throw error;
    },
  );
  if (exists) return { folder, main, created: false };
  const encoder = new TextEncoder();
  await importFiles(
    runtime,
    folder,
    Object.entries(template.files).map(([path, text]) => ({ path, data: encoder.encode(text) })),
  );
  return { folder, main, created: true };
}
