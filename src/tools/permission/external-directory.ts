/**
 * Whether a path a tool is about to touch lies outside the workspace, and if so, what to ask.
 *
 * OpenCode decides this lexically, so `workspace/link-to-etc/passwd` counts as inside. Here the decision is
 * made on where the path really leads: every component is resolved through `realpath`, the way the kernel
 * would walk it, so a symlink out of the workspace is caught, and so is `link/..`, which the kernel reads as
 * "the parent of the link's target" while a lexical normaliser just drops both. A link whose target does not
 * exist yet is judged by its target all the same (writing through it would create the target). Components
 * that do not exist yet (a file about to be written) are appended as written.
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
  /** A link's target; rejects when the path is no link. Without it a dangling link is taken as written. */
  readlink?: (path: string) => Promise<string>;
}

export interface ExternalDirectoryAsk {
  permission: "external_directory";
  patterns: string[];
  always: string[];
  metadata: { filepath: string; parentDir: string };
}

/** Null when the target is inside the root; otherwise the permission request to make before touching it. */
export async function externalDirectoryAsk(input: ExternalDirectoryInput): Promise<ExternalDirectoryAsk | null> {
  return (await judgeExternal(input)).ask;
}

/**
 * The target's real path and, when it lies outside the root, the request to make. A tool that goes on to
 * write must write to this `real` path, the one judged, not resolve the path again.
 */
export async function judgeExternal(input: ExternalDirectoryInput): Promise<{ real: string; ask: ExternalDirectoryAsk | null }> {
  const root = toSlashes(input.root);
  const raw = toSlashes(input.target);
  const absolute = raw.startsWith("/") ? raw : `${root}/${raw}`;
  const [realRoot, realTarget] = await Promise.all([
    physicalPath(root, input.realpath, input.readlink),
    physicalPath(absolute, input.realpath, input.readlink),
  ]);
  return { real: realTarget, ask: contains(realRoot, realTarget) ? null : outsideAsk(input, root, raw, realTarget) };
}

function outsideAsk(input: ExternalDirectoryInput, root: string, raw: string, realTarget: string): ExternalDirectoryAsk {
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

/** As many links as Linux follows in one path before ELOOP. */
const MAX_LINKS = 40;

/**
 * Walks an absolute path one component at a time from `/`, following symlinks as far as the path exists,
 * and through a dangling link to where its target would be (with `readlink`). Exported for the bash
 * permission derivation, which tracks where a `cd` really lands, and for the file tools, which write to the
 * path it returns.
 */
export async function physicalPath(
  absolute: string,
  realpath: (path: string) => Promise<string>,
  readlink?: (path: string) => Promise<string>,
): Promise<string> {
  // Components still to walk, the next one last; a dangling link's target is pushed in its place.
  const pending = absolute.split("/").reverse();
  let current = "/";
  let links = 0;
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      // `current` is already a real path, so its parent is the real parent.
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    const real = await realpath(next).then(toSlashes, () => undefined);
    if (real !== undefined) {
      current = real;
      continue;
    }
    // Missing, or a link to something missing (or a loop). A link is followed to its target, which is where a
    // write through it would land; a loop is left as written (any use of it fails with ELOOP).
    const target = readlink && links < MAX_LINKS ? await readlink(next).then(toSlashes, () => undefined) : undefined;
    if (target === undefined) {
      // A component that does not exist yet (a file about to be written) is taken as written. We still try the
      // ones after it: a later `..` can climb back into folders that do exist and may be links.
      current = next;
      continue;
    }
    links++;
    if (target.startsWith("/")) current = "/";
    pending.push(...target.split("/").reverse());
  }
  return current;
}

function toSlashes(path: string): string {
  return path.replaceAll("\\", "/");
}
