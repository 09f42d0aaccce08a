import { relative } from "pathe";
import { z } from "zod";
import { isRuntimeError } from "../runtime/errors.js";
import description from "./list.txt?raw";
import { assertExternalDirectory } from "./files/external-directory.js";
import { displayPath, resolveToolPath } from "./files/paths.js";
import { define } from "./tool.js";

const IGNORE_PATTERNS = [
  "node_modules/",
  "__pycache__/",
  ".git/",
  "dist/",
  "build/",
  "target/",
  "vendor/",
  "bin/",
  "obj/",
  ".idea/",
  ".vscode/",
  ".zig-cache/",
  "zig-out",
  ".coverage",
  "coverage/",
  "tmp/",
  "temp/",
  ".cache/",
  "cache/",
  "logs/",
  ".venv/",
  "venv/",
  "env/",
];

const LIMIT = 100;

interface Folder {
  folders: Map<string, Folder>;
  files: string[];
}

function render(folder: Folder, depth: number): string {
  let out = "";
  for (const name of [...folder.folders.keys()].sort()) {
    out += `${"  ".repeat(depth)}${name}/\n`;
    out += render(folder.folders.get(name)!, depth + 1);
  }
  for (const file of [...folder.files].sort()) out += `${"  ".repeat(depth)}${file}\n`;
  return out;
}

export const ListTool = define("list", {
  description: description.trim(),
  parameters: z.object({
    path: z.string().describe("The absolute path to the directory to list (must be absolute, not relative)").optional(),
    ignore: z.array(z.string()).describe("List of glob patterns to ignore").optional(),
  }),
  async execute(args, ctx) {
    const root = resolveToolPath(ctx, args.path ?? ".");
    await assertExternalDirectory(ctx, root, "directory");
    await ctx.ask({ permission: "list", patterns: [root], always: ["*"], metadata: { path: root } });
    const stat = await ctx.runtime.fs.stat(root).catch((error: unknown) => {
      if (isRuntimeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
      throw error;
    });
    if (stat?.type !== "directory") throw new Error(`No such file or directory: '${root}'`);
    const globs = [...IGNORE_PATTERNS.map((p) => `!${p}*`), ...(args.ignore ?? []).map((p) => `!${p}`)];
    const tree: Folder = { folders: new Map(), files: [] };
    let count = 0;
    for await (const file of ctx.runtime.search.list({ root, hidden: true, globs }, { signal: ctx.abort })) {
      if (count >= LIMIT) break;
      count++;
      const parts = relative(root, file.path).split("/");
      let folder = tree;
      for (const part of parts.slice(0, -1)) {
        let next = folder.folders.get(part);
        if (!next) folder.folders.set(part, (next = { folders: new Map(), files: [] }));
        folder = next;
      }
      folder.files.push(parts[parts.length - 1]!);
    }
    return {
      title: displayPath(ctx, root) || ".",
      output: `${root}/\n${render(tree, 1)}`,
      metadata: { count, truncated: count >= LIMIT },
    };
  },
});
