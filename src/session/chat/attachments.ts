/**
 * The parts an attachment becomes in the person's message. A workspace file (`file://` URL) is read:
 * text goes in as text (every model reads it), anything else as a data: URL (for models that take files).
 * Pasted bytes are already a data: URL and go in as they are.
 *
 * A workspace file must stay inside the workspace (its real path, after links) and under a size cap:
 * MAX_TEXT_BYTES for text, which is inlined into every later request; MAX_BINARY_BYTES for anything else,
 * about what providers accept for one image or PDF. Anything wrong is an AttachmentError saying what to do.
 */
import { join, normalize } from "pathe";
import type { Runtime } from "../../runtime/types.js";
import type { Attachment } from "./chat-view.js";
import { ascendingId } from "../record/ids.js";
import type { Part } from "../record/message.js";
import { errorMessage } from "../../base/error-message.js";

const MAX_TEXT_BYTES = 256 * 1024;
const MAX_BINARY_BYTES = 5 * 1024 * 1024;

export class AttachmentError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = "AttachmentError";
  }
}

function isTextMime(mime: string): boolean {
  return mime.startsWith("text/") || /json|xml|javascript|typescript|yaml|toml|x-sh/.test(mime);
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * The prompt box names files from the workspace root (file:///src/a.ts); a URL that already holds the
 * root (file:///workspace/src/a.ts) is taken as it is. Either way the result is checked to be inside.
 */
function workspacePath(root: string, path: string): string {
  if (path === root || path.startsWith(`${root.replace(/\/+$/, "")}/`)) return path;
  return join(root, path.replace(/^\/+/, ""));
}

function unreadable(path: string, error: unknown): AttachmentError {
  if (error instanceof AttachmentError) return error;
  const hint = "Attach it again, or send the message without it.";
  if (codeOf(error) === "ENOENT") return new AttachmentError(`the attached file ${path} no longer exists`, hint);
  return new AttachmentError(`the attached file ${path} could not be read: ${errorMessage(error)}`, hint);
}

/** The workspace path a `file://` URL names, checked to be a file inside the workspace after links. */
async function workspaceFile(runtime: Runtime, url: string, filename: string): Promise<{ path: string; size: number }> {
  let path: string;
  try {
    // Not through URL parsing, which would quietly drop "..": a path that climbs out is named and refused.
    path = normalize(workspacePath(runtime.root, decodeURIComponent(url.slice("file://".length))));
  } catch {
    throw new AttachmentError(
      `the attachment ${filename} has an unreadable address (${url.slice(0, 200)})`,
      "Attach the file again from the workspace.",
    );
  }
  const root = await runtime.fs.realpath(runtime.root).catch(() => normalize(runtime.root));
  const outside = new AttachmentError(
    `the attached file ${path} is outside the workspace (${runtime.root})`,
    "Only files inside the workspace can be attached: copy the file into the workspace first.",
  );
  if (!inside(normalize(runtime.root), path) && !inside(root, path)) throw outside;
  let real: string;
  let stat: Awaited<ReturnType<Runtime["fs"]["stat"]>>;
  try {
    real = await runtime.fs.realpath(path);
    // A link inside the workspace may point anywhere; where it leads is what would be read.
    if (!inside(root, real)) throw outside;
    stat = await runtime.fs.stat(real);
  } catch (error) {
    throw unreadable(path, error);
  }
  if (stat.type !== "file") throw new AttachmentError(`the attachment ${path} is not a file`, "Attach a file, not a folder.");
  return { path: real, size: stat.size };
}

export async function attachmentParts(runtime: Runtime, attachment: Attachment, messageID: string): Promise<Part[]> {
  const file: Part = {
    id: ascendingId("prt"),
    messageID,
    type: "file",
    mime: attachment.mime,
    filename: attachment.filename,
    url: attachment.url,
  };
  if (!attachment.url.startsWith("file://")) return [file];
  const text = isTextMime(attachment.mime);
  const { path, size } = await workspaceFile(runtime, attachment.url, attachment.filename);
  const cap = text ? MAX_TEXT_BYTES : MAX_BINARY_BYTES;
  const tooBig = (bytes: number) =>
    new AttachmentError(
      `the attached file ${path} is too large (${sizeLabel(bytes)}; ${text ? "text" : "other"} files may be at most ${sizeLabel(cap)})`,
      text ? "Attach a smaller file, or ask the agent to read the part you need with its read tool." : "Attach a smaller file.",
    );
  if (size > cap) throw tooBig(size);
  let bytes: Uint8Array;
  try {
    bytes = await runtime.fs.readFile(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  // It may have grown between the stat and the read.
  if (bytes.length > cap) throw tooBig(bytes.length);
  if (text) {
    const content = new TextDecoder().decode(bytes);
    return [
      file,
      { id: ascendingId("prt"), messageID, type: "text", synthetic: true, text: `Attached file ${path}:\n<file>\n${content}\n</file>` },
    ];
  }
  return [{ ...file, url: `data:${attachment.mime};base64,${base64(bytes)}` }];
}

/** Base64 in chunks joined once at the end: adding to one growing string copies it again on every chunk. */
function base64(bytes: Uint8Array): string {
  const chunks: string[] = [];
  // A multiple of 3 bytes, so each chunk encodes without padding in the middle.
  const size = 3 * 0x2000;
  for (let i = 0; i < bytes.length; i += size) chunks.push(btoa(String.fromCharCode(...bytes.subarray(i, i + size))));
  return chunks.join("");
}
