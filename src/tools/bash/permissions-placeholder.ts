/**
 * A stand-in for the bash permission derivation (tree-sitter parsing, arity, paths), which is written on
 * its own branch and replaces this file when merged. It asks the least the tool must ask: the whole line
 * as one `bash` pattern, "always" for its first word, and `external_directory` for a workdir outside the
 * workspace.
 */
import type { RuntimeFs } from "../../runtime/types.js";
import { externalDirectoryAsk } from "../permission/external-directory.js";

export interface BashPermissionInput {
  /** Where the command starts, absolute. */
  workdir: string;
  /** The workspace root. */
  root: string;
  fs: Pick<RuntimeFs, "realpath">;
}

export interface PermissionPatterns {
  patterns: string[];
  always: string[];
}

export interface BashPermissions {
  externalDirectories: PermissionPatterns;
  bash: PermissionPatterns;
}

export async function bashPermissions(command: string, input: BashPermissionInput): Promise<BashPermissions> {
  const outside = await externalDirectoryAsk({
    root: input.root,
    target: input.workdir,
    kind: "directory",
    realpath: (path) => input.fs.realpath(path),
  });
  const firstWord = command.trim().split(/\s+/)[0] ?? "";
  return {
    externalDirectories: outside ? { patterns: outside.patterns, always: outside.always } : { patterns: [], always: [] },
    bash: firstWord === "" ? { patterns: [], always: [] } : { patterns: [command], always: [`${firstWord} *`] },
  };
}
