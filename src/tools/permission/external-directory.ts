/**
 * Whether a path a tool is about to touch lies outside the workspace, and if so, what to ask.
 *
 * OpenCode decides this lexically, so `workspace/link-to-etc/passwd` counts as inside. Here the decision is
 * made on where the path really leads: every component is resolved through `realpath`, the way the kernel
 * would walk it, so a symlink out of the workspace is caught, and so is `link/..`, which the kernel reads as
 * "the parent of the link's target" while a lexical normaliser just drops both. Components that do not exist
 * yet (a file about to be written) are appended as written.
 */
import { dirname, join, relative, resolve } from "pathe";

export interface ExternalDirectoryInput {
  /** The workspace root. */
  root: string;
  /** The path the tool was given; relative paths are taken from the root. */
  target: string;
  /** For a file the question is about its folder; for a directory, about the directory itself. */
  kind: "file" | "directory";
  /** Resolves an existing path through symlinks; rejects when the path does not exist. */
  realpath: (path: string) => Promise<string>;
}

export interface ExternalDirectoryAsk {
  permission: "external_directory";
  patterns: string[];
  always: string[];
  metadata: { filepath: string; parentDir: string };
}

/** Null when the target is inside the root; otherwise the permission request to make before touching it. */
export async function externalDirectoryAsk(input: ExternalDirectoryInput): Promise<ExternalDirectoryAsk | null> {
  const root = toSlashes(input.root);
  const raw = toSlashes(input.target);
  const absolute = raw.startsWith("/") ? raw : `${root}/${raw}`;
  const [realRoot, realTarget] = await Promise.all([physicalPath(root, input.realpath), physicalPath(absolute, input.realpath)]);
  if (contains(realRoot, realTarget)) return null;
  // The pattern names the real folder, so rules written about it (say `"/etc/*": "deny"`) apply however the
  // tool got there; the metadata keeps the path as the tool saw it, which is what the user will recognise.
  const parentDir = input.kind === "directory" ? realTarget : dirname(realTarget);
  const glob = join(parentDir, "*");
  return {
    permission: "external_directory",
    patterns: [glob],
    always: [glob],
    metadata: { filepath: resolve(root, raw), parentDir },
  };
}

/** True when `child` is `parent` or below it. */
export function contains(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  // `..foo` is a name inside the parent, not a way out; only a whole `..` component leaves it.
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !rel.startsWith("/"));
}

/**
 * Walks an absolute path one component at a time from `/`, following symlinks as far as the path exists.
 * Exported for the bash permission derivation, which tracks where a `cd` really lands.
 */
export async function physicalPath(absolute: string, realpath: (path: string) => Promise<string>): Promise<string> {
  let current = "/";
  for (const part of absolute.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      // `current` is already a real path, so its parent is the real parent.
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    // A component that does not exist yet (a file about to be written) is taken as written. We still try the
    // ones after it: a later `..` can climb back into folders that do exist and may be links.
    current = await realpath(next).then(toSlashes, () => next);
  }
  return current;
}

function toSlashes(path: string): string {
  return path.replaceAll("\\", "/");
}
