/**
 * Verifies a parsed patch against the files and works out every file's new text, without writing
 * anything: either every hunk of every file applies and the whole plan is returned, or a PatchError is
 * thrown and nothing is planned.
 */
import { diffArrays } from "diff";
import { carryEditedLine } from "../edit/intent.js";
import { isAbsolute, relative, resolve } from "pathe";
import { fileDiff } from "../files/diff.js";
import { PatchError } from "./errors.js";
import { seekSequence, stripLineNumberPrefix } from "./seek.js";
import type { PatchHunk, PatchIo, PlannedChange, UpdateChunk } from "./types.js";
import { errorMessage } from "../../base/error-message.js";

const BOM = "\uFEFF";

type Eol = "\n" | "\r\n";

/** A file as lines (without terminators) and each line's own terminator ("" for a last line without one). */
interface FileLines {
  bom: boolean;
  lines: string[];
  eols: Array<Eol | "">;
  /** The terminator most lines use: what new lines get. */
  eol: Eol;
}

export async function planPatch(hunks: readonly PatchHunk[], io: PatchIo): Promise<PlannedChange[]> {
  const root = resolve(io.root);
  const absolute = (path: string) => (isAbsolute(path) ? resolve(path) : resolve(root, path));
  const shown = (path: string) => {
    const rel = relative(root, path);
    return rel === "" || rel.startsWith("../") || rel === ".." || isAbsolute(rel) ? path : rel;
  };

  // Files as earlier hunks of this patch leave them (null: deleted), so a patch that touches a file
  // twice, or adds and then updates it, plans each step from the previous one.
  const pending = new Map<string, string | null>();
  const current = async (path: string): Promise<string | undefined | "directory"> => {
    if (pending.has(path)) return pending.get(path) ?? undefined;
    if (await io.isDirectory(path)) return "directory";
    return io.read(path);
  };
  const isDirectory = async (path: string) => !pending.has(path) && (await io.isDirectory(path));

  const changes: PlannedChange[] = [];
  for (const hunk of hunks) {
    const path = absolute(hunk.path);
    const relativePath = shown(path);
    if (hunk.type === "add") {
      if (await isDirectory(path)) {
        throw new PatchError("target_is_directory", `Failed to add ${path}: a directory with that name exists`);
      }
      const existing = pending.has(path) ? (pending.get(path) ?? undefined) : await readOrFail(io, path, `Failed to read ${path}`);
      const before = existing ?? "";
      const after = hunk.contents === "" || hunk.contents.endsWith("\n") ? hunk.contents : `${hunk.contents}\n`;
      pending.set(path, after);
      changes.push({ type: "add", path, relativePath, before, after, ...diffOf(relativePath, relativePath, before, after) });
      continue;
    }
    if (hunk.type === "delete") {
      const before = await current(path).catch((error: unknown) => {
        throw new PatchError("delete_failed", `Failed to read file to delete: ${path}`, { cause: error });
      });
      if (before === "directory") {
        throw new PatchError("delete_failed", `Failed to delete ${path}: it is a directory (apply_patch deletes files only)`);
      }
      if (before === undefined) {
        throw new PatchError("delete_failed", `Failed to delete ${path}: no such file. Check the path; a file must exist to be deleted.`);
      }
      pending.set(path, null);
      changes.push({ type: "delete", path, relativePath, before, after: "", ...diffOf(relativePath, relativePath, before, "") });
      continue;
    }
    const before = await current(path).catch((error: unknown) => {
      throw new PatchError("missing_file", `Failed to read file to update: ${path}`, { cause: error });
    });
    if (before === undefined || before === "directory") {
      throw new PatchError("missing_file", `Failed to read file to update: ${path}`);
    }
    const after = applyChunks(before, hunk.chunks, path);
    const movePath = hunk.movePath === undefined ? undefined : absolute(hunk.movePath);
    if (movePath === undefined || movePath === path) {
      pending.set(path, after);
      changes.push({ type: "update", path, relativePath, before, after, ...diffOf(relativePath, relativePath, before, after) });
      continue;
    }
    if (await isDirectory(movePath)) {
      throw new PatchError("target_is_directory", `Failed to move ${path} to ${movePath}: a directory with that name exists`);
    }
    const moveRelativePath = shown(movePath);
    pending.set(path, null);
    pending.set(movePath, after);
    changes.push({
      type: "move",
      path,
      relativePath,
      movePath,
      moveRelativePath,
      before,
      after,
      ...diffOf(relativePath, moveRelativePath, before, after),
    });
  }
  return changes;
}

async function readOrFail(io: PatchIo, path: string, message: string): Promise<string | undefined> {
  try {
    return await io.read(path);
  } catch (error) {
    throw new PatchError("missing_file", `${message}: ${errorMessage(error)}`, { cause: error });
  }
}

/** Diffs are of the text as seen: no BOM, LF line endings. */
function diffOf(oldName: string, newName: string, before: string, after: string) {
  const plain = (text: string) => (text.startsWith(BOM) ? text.slice(1) : text).replace(/\r\n/g, "\n");
  return fileDiff(oldName, newName, plain(before), plain(after));
}

function splitFile(text: string): FileLines {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: string[] = [];
  const eols: Array<Eol | ""> = [];
  let crlf = 0;
  let lf = 0;
  let from = 0;
  while (from < body.length) {
    const newline = body.indexOf("\n", from);
    if (newline === -1) {
      lines.push(body.slice(from));
      eols.push("");
      break;
    }
    if (newline > from && body[newline - 1] === "\r") {
      lines.push(body.slice(from, newline - 1));
      eols.push("\r\n");
      crlf++;
    } else {
      lines.push(body.slice(from, newline));
      eols.push("\n");
      lf++;
    }
    from = newline + 1;
  }
  return { bom, lines, eols, eol: crlf > 0 && crlf >= lf ? "\r\n" : "\n" };
}

/** Every line gets a terminator (a file always ends with a newline after a patch). */
function joinFile(file: FileLines): string {
  let text = file.bom ? BOM : "";
  for (const [index, line] of file.lines.entries()) text += line + (file.eols[index] || file.eol);
  return text;
}

interface Replacement {
  start: number;
  count: number;
  lines: string[];
  eols: Array<Eol | "">;
}

/**
 * The file's text after the chunks. Chunks are found in order, each after the previous one; matching is
 * on the lines without their terminators, so a CRLF file matches an LF patch. Lines the chunk keeps as
 * context keep the file's own text and ending, even when they matched only loosely; new lines get the
 * file's usual ending.
 */
function applyChunks(text: string, chunks: readonly UpdateChunk[], path: string): string {
  const file = splitFile(text);
  const { lines } = file;
  const replacements: Replacement[] = [];
  const insert = (start: number, added: readonly string[]) =>
    replacements.push({ start, count: 0, lines: [...added], eols: added.map(() => file.eol) });
  let cursor = 0;

  for (const chunk of chunks) {
    let contextIndex: number | undefined;
    if (chunk.context !== undefined) {
      const found = seekSequence(lines, [chunk.context], cursor);
      if (!found) throw new PatchError("context_not_found", `Failed to find context '${chunk.context}' in ${path}`);
      contextIndex = found.index;
      cursor = found.index + 1;
    }

    let oldLines = chunk.oldLines;
    let newLines = chunk.newLines;
    const find = () => {
      if (oldLines.length === 0) return undefined;
      const found = seekSequence(lines, oldLines, cursor, chunk.endOfFile);
      // The chunk may start with the context line itself (`@@ def f():` then ` def f():`).
      if (found || contextIndex === undefined) return found;
      return seekSequence(lines, oldLines, contextIndex, chunk.endOfFile);
    };
    let found = find();
    if (!found && oldLines.at(-1) === "") {
      // A trailing empty line often stands for the file's final newline, which is no line of its own.
      oldLines = oldLines.slice(0, -1);
      if (newLines.at(-1) === "") newLines = newLines.slice(0, -1);
      found = find();
    }

    if (oldLines.length === 0) {
      // Nothing to match: insert after the `@@` context when there is one, else at the end of the file.
      insert(chunk.endOfFile || contextIndex === undefined ? lines.length : cursor, newLines);
      continue;
    }
    if (!found) {
      throw new PatchError("lines_not_found", `Failed to find expected lines in ${path}:\n${chunk.oldLines.join("\n")}`);
    }

    const replacement: Replacement = { start: found.index, count: oldLines.length, lines: [], eols: [] };
    let offset = 0;
    // Removed lines just before an added run, for a loose match: an edited line is then the file's line
    // with the patch's edit made in it (its escapes, quotes and spacing kept), not the patch's text.
    let removedAt: number[] = [];
    for (const part of diffArrays(oldLines, newLines)) {
      if (part.removed) {
        removedAt = [];
        for (let i = 0; i < part.count; i++) removedAt.push(offset + i);
        offset += part.count;
      } else if (part.added) {
        const lineByLine = found.pass !== "exact" && removedAt.length === part.count;
        part.value.forEach((raw, i) => {
          const line = found.strippedLineNumbers ? (stripLineNumberPrefix(raw) ?? raw) : raw;
          const at = removedAt[i]!;
          const before = lineByLine
            ? found.strippedLineNumbers
              ? (stripLineNumberPrefix(oldLines[at]!) ?? oldLines[at]!)
              : oldLines[at]!
            : undefined;
          replacement.lines.push(before !== undefined ? carryEditedLine(before, line, lines[found.index + at] ?? "") : line);
          replacement.eols.push(file.eol);
        });
        removedAt = [];
      } else {
        removedAt = [];
        for (let i = 0; i < part.count; i++, offset++) {
          replacement.lines.push(lines[found.index + offset] ?? "");
          replacement.eols.push(file.eols[found.index + offset] ?? file.eol);
        }
      }
    }
    replacements.push(replacement);
    cursor = found.index + oldLines.length;
  }

  // Stable: inserts at the same place keep the order of their chunks.
  replacements.sort((a, b) => a.start - b.start);
  const result: FileLines = { bom: file.bom, lines: [], eols: [], eol: file.eol };
  let position = 0;
  for (const replacement of replacements) {
    for (; position < replacement.start; position++) {
      result.lines.push(lines[position] ?? "");
      result.eols.push(file.eols[position] ?? file.eol);
    }
    result.lines.push(...replacement.lines);
    result.eols.push(...replacement.eols);
    position = Math.max(position, replacement.start + replacement.count);
  }
  for (; position < lines.length; position++) {
    result.lines.push(lines[position] ?? "");
    result.eols.push(file.eols[position] ?? file.eol);
  }
  return joinFile(result);
}
