/**
 * Judging paths for the bash derivation: each one is taken from every folder the shell may be in, through
 * globs and symlinks, and what leads outside the workspace becomes an external_directory pattern (the real
 * folder, `<dir>/*`) or, when it cannot be known before running, `(unresolved) <text as written>`.
 */
import type { Node } from "web-tree-sitter";
import type { RuntimeFs } from "../../runtime/types.js";
import { UNRESOLVED } from "../permission/unresolved.js";
import { externalDirectoryAsk, physicalPath, type ExternalDirectoryAsk } from "../permission/external-directory.js";
import { isHarmlessDevice } from "./commands.js";
import { componentMatcher, splitComponents } from "./glob.js";
import { localUrlTarget } from "./urls.js";
import { evaluateWord, hasGlob, pathExpansion, textOf, type Char } from "./words.js";

/** What the derivation reads of the files: where paths lead, what is a folder, what a glob matches. */
export type DeriveFs = Pick<RuntimeFs, "realpath" | "stat" | "readdir">;

/** Why a folder is asked about, for the prompt and for logs. */
export interface ExternalReason {
  pattern: string;
  /** The command (its text) that touches it. */
  command: string;
  /** The argument or redirection target as written. */
  argument: string;
  /** Where it leads, when known. */
  path?: string;
  why: string;
}

/** Prefix of the patterns that stand for paths that cannot be known before the command runs. */
export { UNRESOLVED };

/** A folder the shell may be in: a real absolute path, or why it cannot be known. */
export type Cwd = { path: string } | { unknown: string };
export type Cwds = Cwd[];

const MAX_GLOB_MATCHES = 2000;

export class PathJudge {
  private readonly external = new Map<string, ExternalReason>();
  private readonly realpaths = new Map<string, Promise<string>>();
  /** Scripts judge the same paths over and over (a loop body, the same file from each possible folder). */
  private readonly judged = new Map<string, Promise<ExternalDirectoryAsk | null>>();

  constructor(
    private readonly root: string,
    private readonly fs: DeriveFs,
  ) {}

  result(): { patterns: string[]; always: string[]; reasons: ExternalReason[] } {
    const patterns = [...this.external.keys()];
    return {
      patterns,
      // An unresolved path has no folder to remember: "always" for it would approve a string, not a place.
      always: patterns.filter((p) => !p.startsWith(UNRESOLVED)),
      reasons: [...this.external.values()],
    };
  }

  /** Where an absolute path really leads (symlinks followed as far as it exists). */
  physical(absolute: string): Promise<string> {
    return physicalPath(absolute, this.realpath);
  }

  private readonly realpath = (path: string): Promise<string> => {
    let cached = this.realpaths.get(path);
    if (!cached) {
      cached = this.fs.realpath(path);
      // Failures are cached too (the path does not exist); the walker catches them.
      cached.catch(() => undefined);
      this.realpaths.set(path, cached);
    }
    return cached;
  };

  /** An option value (`--target-directory=../x`), judged from every folder the command may run in. */
  async text(context: { text: string; cwds: Cwds }, text: string, argument: string, kind: "file" | "directory"): Promise<void> {
    if (text === "") return;
    if (/^~|[$`]/.test(text)) {
      this.unresolved({ command: context.text, argument, why: "an option value that is not known before it runs" });
      return;
    }
    if (await this.url(context.text, text, argument, "an option names a file outside the workspace by URL")) return;
    for (const cwd of context.cwds)
      await this.from(cwd, text, { command: context.text, argument, kind, why: "an option names a path outside the workspace" });
  }

  /** Judges one argument node, which may be unknown, a glob, or a plain path. */
  async argument(input: {
    command: string;
    node: Node;
    cwds: Cwds;
    kind: "file" | "directory";
    commandName: string | null;
    why?: string;
  }): Promise<void> {
    const { command, node, cwds, kind } = input;
    const value = evaluateWord(node);
    if (!value.known) {
      this.unresolved({ command, argument: node.text, why: input.why ?? `${value.why} in a path` });
      return;
    }
    const expansion = pathExpansion(value.chars);
    if (expansion) {
      this.unresolved({ command, argument: node.text, why: `${expansion} in a path` });
      return;
    }
    const text = textOf(value.chars);
    if (text === "" || isHarmlessDevice(text)) return;
    if (await this.url(command, text, node.text, `${input.commandName ?? "a command"} opens a file outside the workspace by URL`)) return;
    if (/(^|\/)\*\*/.test(text) && hasGlob(value.chars)) {
      // With globstar `**` descends any depth, so a link deep down is in reach; we do not walk the tree.
      this.unresolved({ command, argument: node.text, why: "a ** glob may reach links at any depth" });
      return;
    }
    const why = input.commandName ? `${input.commandName} reaches outside the workspace` : "a path outside the workspace";
    for (const cwd of cwds) {
      if (hasGlob(value.chars)) await this.glob(cwd, value.chars, { command, argument: node.text, kind, why });
      else await this.from(cwd, text, { command, argument: node.text, kind, why });
    }
  }

  private async from(
    cwd: Cwd,
    text: string,
    what: { command: string; argument: string; kind: "file" | "directory"; why: string },
  ): Promise<void> {
    if (text.startsWith("/")) return this.path({ ...what, absolute: text });
    if ("unknown" in cwd) {
      this.unresolved({
        command: what.command,
        argument: what.argument,
        why: `a relative path from a folder not known before running (${cwd.unknown})`,
      });
      return;
    }
    return this.path({ ...what, absolute: `${cwd.path}/${text}` });
  }

  /**
   * A glob in the last component is expanded against the folder (a superset of what bash would match); one
   * in an earlier component could walk through any link below, so it is not followed and asks instead.
   */
  private async glob(
    cwd: Cwd,
    chars: Char[],
    what: { command: string; argument: string; kind: "file" | "directory"; why: string },
  ): Promise<void> {
    const parts = splitComponents(chars);
    const last = parts.pop()!;
    if (parts.some(hasGlob)) {
      this.unresolved({
        command: what.command,
        argument: what.argument,
        why: "a glob in a folder name may match links out of the workspace",
      });
      return;
    }
    const prefix = parts.map(textOf).join("/");
    const absolutePrefix = chars[0]?.ch === "/" ? prefix || "/" : "path" in cwd ? (prefix ? `${cwd.path}/${prefix}` : cwd.path) : null;
    if (absolutePrefix === null) {
      this.unresolved({
        command: what.command,
        argument: what.argument,
        why: `a relative path from a folder not known before running (${"unknown" in cwd ? cwd.unknown : ""})`,
      });
      return;
    }
    await this.path({ ...what, absolute: absolutePrefix, kind: "directory" });
    const matches = componentMatcher(last);
    // `.*` once matched `..` (and does again without globskipdots): the parent is then in reach.
    if (matches("..")) await this.path({ ...what, absolute: `${absolutePrefix}/..`, kind: "directory" });
    let entries: { name: string }[];
    try {
      entries = await this.fs.readdir(await this.physical(absolutePrefix));
    } catch {
      return; // no such folder: the glob stays a literal name in it, already judged with the folder
    }
    const hits = entries.filter((entry) => matches(entry.name));
    if (hits.length > MAX_GLOB_MATCHES) {
      this.unresolved({ command: what.command, argument: what.argument, why: "a glob matching too many names to check one by one" });
      return;
    }
    for (const hit of hits) await this.path({ ...what, absolute: `${absolutePrefix}/${hit.name}` });
  }

  /**
   * A `file:` URL or git transport is judged as the local path it opens, or asks when that cannot be known.
   * Returns whether `text` was such a URL.
   */
  private async url(command: string, text: string, argument: string, why: string): Promise<boolean> {
    const target = localUrlTarget(text);
    if (!target) return false;
    if ("why" in target) this.unresolved({ command, argument, why: target.why });
    else await this.path({ command, argument, absolute: target.path, kind: "file", why });
    return true;
  }

  /** One absolute path: asks for its real folder when that is outside the workspace. */
  async path(input: { command: string; argument: string; absolute: string; kind: "file" | "directory"; why: string }): Promise<void> {
    if (isHarmlessDevice(input.absolute)) return;
    const memo = `${input.kind}:${input.absolute}`;
    let judged = this.judged.get(memo);
    if (!judged) {
      judged = this.externalAsk(input.absolute, input.kind);
      this.judged.set(memo, judged);
    }
    const ask = await judged;
    if (!ask) return;
    for (const pattern of ask.patterns) {
      if (!this.external.has(pattern)) {
        this.external.set(pattern, {
          pattern,
          command: input.command,
          argument: input.argument,
          path: ask.metadata.filepath,
          why: input.why,
        });
      }
    }
  }

  private async externalAsk(absolute: string, wanted: "file" | "directory"): Promise<ExternalDirectoryAsk | null> {
    let kind = wanted;
    if (kind === "file") {
      // An existing folder is asked about as itself (`rm -rf /etc` asks for `/etc/*`), as OpenCode does.
      const stat = await this.fs.stat(absolute).catch(() => null);
      if (stat?.type === "directory") kind = "directory";
    }
    return externalDirectoryAsk({ root: this.root, target: absolute, kind, realpath: this.realpath });
  }

  /** What cannot be judged: asked about as the text it was written as. */
  unresolved(input: { command: string; argument: string; why: string }): void {
    const pattern = `${UNRESOLVED}${input.argument}`;
    if (!this.external.has(pattern))
      this.external.set(pattern, { pattern, command: input.command, argument: input.argument, why: input.why });
  }
}
