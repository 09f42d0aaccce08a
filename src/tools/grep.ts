import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import description from "./grep.txt?raw";
import { assertExternalDirectory } from "./files/external-directory.js";
import { resolveToolPath } from "./files/paths.js";
import { compilePattern, type SearchMatch } from "./files/search.js";
import { contains } from "./permission/external-directory.js";
import { define, type Context } from "./tool.js";

const LIMIT = 100;
const MAX_LINE_LENGTH = 2000;
/** Matches kept in memory to sort; past this only counted (the output shows 100 anyway). */
const KEEP = 10_000;

/** A line cut to 2,000 characters around its first match, so the match stays visible. */
export function cutAroundMatch(line: string, match: { start: number; end: number } | undefined): string {
  if (line.length <= MAX_LINE_LENGTH) return line;
  const center = match ? Math.floor((match.start + match.end) / 2) : 0;
  let start = Math.max(0, Math.min(center - MAX_LINE_LENGTH / 2, line.length - MAX_LINE_LENGTH));
  if (!match || match.end <= MAX_LINE_LENGTH) start = 0;
  const body = line.slice(start, start + MAX_LINE_LENGTH);
  return `${start > 0 ? "..." : ""}${body}${start + MAX_LINE_LENGTH < line.length ? "..." : ""}`;
}

/** Links listed by name in the note; past this only counted. */
const OUTSIDE_SHOWN = 10;

/**
 * The folders a search may follow links into: the workspace, and the searched folder itself when it is
 * outside (external_directory was asked for it). A link leading anywhere else is skipped and reported:
 * following it would read files outside with no prompt.
 */
async function confinement(ctx: Context, root: string): Promise<string[] | undefined> {
  if (ctx.extra?.bypassCwdCheck === true) return undefined;
  const real = (path: string) => ctx.runtime.fs.realpath(path).catch(() => path);
  const [workspace, searched] = await Promise.all([real(ctx.directory), real(root)]);
  return contains(workspace, searched) ? [workspace] : [workspace, searched];
}

/** The note after the results: which links were not followed, and how to search there anyway. */
function outsideNote(outside: string[]): string {
  if (outside.length === 0) return "";
  // In path order (the walk reports them as it meets them, some in parallel), without rg's "./".
  const sorted = outside.map((text) => text.replace(/^\.\//, "")).sort();
  const shown = sorted.slice(0, OUTSIDE_SHOWN).join(", ");
  const more = outside.length > OUTSIDE_SHOWN ? ` and ${outside.length - OUTSIDE_SHOWN} more` : "";
  return `\n\nSkipped ${outside.length} link${outside.length === 1 ? "" : "s"} that lead${outside.length === 1 ? "s" : ""} outside the workspace: ${shown}${more}. To search there, grep the target path itself (access outside the workspace is asked for).`;
}

export const GrepTool = define("grep", {
  description: description.trim(),
  parameters: z.object({
    pattern: z.string().describe("The regex pattern to search for in file contents"),
    path: z.string().optional().describe("The directory to search in. Defaults to the current working directory."),
    include: z.string().optional().describe('File pattern to include in the search (e.g. "*.js", "*.{ts,tsx}")'),
  }),
  async execute(args, ctx) {
    if (args.pattern === "") throw new Error("pattern is required");
    await ctx.ask({
      permission: "grep",
      patterns: [args.pattern],
      always: ["*"],
      metadata: { pattern: args.pattern, path: args.path, include: args.include },
    });
    const root = resolveToolPath(ctx, args.path ?? ".");
    await assertExternalDirectory(ctx, root, "directory");
    const stat = await ctx.runtime.fs.stat(root).catch((error: unknown) => {
      if (isRuntimeError(error) && error.code === "ENOENT") throw new Error(`No such file or directory: '${root}'`);
      throw error;
    });
    compilePattern([args.pattern], {}); // a clear error for a bad pattern before any file is read
    const confine = await confinement(ctx, root);
    const outside: string[] = [];
    const kept: SearchMatch[] = [];
    let total = 0;
    const results = ctx.runtime.search.search(
      {
        root: stat.type === "directory" ? root : root.slice(0, root.lastIndexOf("/")) || "/",
        paths: stat.type === "directory" ? undefined : [root],
        patterns: [args.pattern],
        hidden: true,
        follow: true,
        confine,
        globs: args.include ? [args.include] : [],
      },
      { signal: ctx.abort, onMessage: (text, kind) => void (kind === "outside" && outside.push(text)) },
    );
    for await (const file of results) {
      total += file.matches.length;
      for (const match of file.matches) if (kept.length < KEEP) kept.push(match);
    }
    const skippedNote = outsideNote(outside);
    if (total === 0) {
      return {
        title: args.pattern,
        output: `No files found${skippedNote}`,
        metadata: { matches: 0, truncated: false, skippedLinks: outside.length },
      };
    }
    const mtimes = new Map<string, number>();
    for (const match of kept) {
      if (!mtimes.has(match.path))
        mtimes.set(
          match.path,
          await ctx.runtime.fs.stat(match.path).then(
            (s) => s.mtimeMs,
            () => 0,
          ),
        );
    }
    // Newest files first; a file's matches stay in line order.
    kept.sort((a, b) => mtimes.get(b.path)! - mtimes.get(a.path)! || (a.path === b.path ? a.lineNumber - b.lineNumber : 0));
    const shown = kept.slice(0, LIMIT);
    const truncated = total > LIMIT;
    const lines = [`Found ${total} matches${truncated ? ` (showing first ${LIMIT})` : ""}`];
    let current = "";
    for (const match of shown) {
      if (match.path !== current) {
        if (current !== "") lines.push("");
        current = match.path;
        lines.push(`${match.path}:`);
      }
      lines.push(`  Line ${match.lineNumber}: ${cutAroundMatch(match.line, match.matches[0])}`);
    }
    if (truncated) {
      lines.push(
        "",
        `(Results truncated: showing ${LIMIT} of ${total} matches (${total - LIMIT} hidden). Consider using a more specific path or pattern.)`,
      );
    }
    return {
      title: args.pattern,
      output: lines.join("\n") + skippedNote,
      metadata: { matches: total, truncated, skippedLinks: outside.length },
    };
  },
});
