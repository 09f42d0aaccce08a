/** One error type for every backend, so tools can branch on `code` whatever the runtime. */
import { errorMessage } from "../base/error-message.js";

export type FsErrorCode =
  | "ENOENT"
  | "EISDIR"
  | "ENOTDIR"
  | "EEXIST"
  | "ENOTEMPTY"
  | "EACCES"
  | "EPERM"
  | "EROFS"
  | "ELOOP"
  | "EINVAL"
  | "ENOSYS"
  | "ENOSPC"
  | "EBUSY"
  | "EIO";

const known: ReadonlySet<string> = new Set<FsErrorCode>([
  "ENOENT",
  "EISDIR",
  "ENOTDIR",
  "EEXIST",
  "ENOTEMPTY",
  "EACCES",
  "EPERM",
  "EROFS",
  "ELOOP",
  "EINVAL",
  "ENOSYS",
  "ENOSPC",
  "EBUSY",
  "EIO",
]);

const explanations: Record<FsErrorCode, string> = {
  ENOENT: "no such file or directory",
  EISDIR: "is a directory",
  ENOTDIR: "not a directory",
  EEXIST: "already exists",
  ENOTEMPTY: "directory not empty",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only workspace (it is open in another tab)",
  ELOOP: "too many levels of symbolic links",
  EINVAL: "invalid argument",
  ENOSYS: "not supported by this runtime",
  ENOSPC: "no space left: the browser's storage quota is full (download the workspace, then delete files)",
  EBUSY: "resource busy",
  EIO: "input/output error",
};

export class RuntimeError extends Error {
  readonly code: FsErrorCode;
  readonly path: string | undefined;
  readonly syscall: string;

  constructor(code: FsErrorCode, syscall: string, path?: string, detail?: string) {
    super(`${code}: ${detail ?? explanations[code]}, ${syscall}${path === undefined ? "" : ` '${path}'`}`);
    this.name = "RuntimeError";
    this.code = code;
    this.syscall = syscall;
    this.path = path;
  }
}

export function isRuntimeError(error: unknown, code?: FsErrorCode): error is RuntimeError {
  return error instanceof RuntimeError && (code === undefined || error.code === code);
}

/** Maps whatever a backend threw (node, ZenFS, WebContainer messages) to a RuntimeError. */
export function toRuntimeError(error: unknown, syscall: string, path?: string): RuntimeError {
  if (error instanceof RuntimeError) return error;
  const raw = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  let code = typeof raw === "string" && known.has(raw) ? (raw as FsErrorCode) : undefined;
  const message = errorMessage(error);
  if (code === undefined && /quota/i.test(message)) code = "ENOSPC";
  if (code === undefined) {
    const match = /\b(E[A-Z]{2,9})\b/.exec(message);
    if (match && known.has(match[1]!)) code = match[1] as FsErrorCode;
  }
  return new RuntimeError(code ?? "EIO", syscall, path, code === undefined ? message : undefined);
}

/** A plain object that crosses postMessage and comes back as the same RuntimeError. */
export interface SerializedError {
  code: FsErrorCode;
  syscall: string;
  path?: string;
  message: string;
}

export function serializeError(error: RuntimeError): SerializedError {
  return { code: error.code, syscall: error.syscall, path: error.path, message: error.message };
}

export function deserializeError(data: SerializedError): RuntimeError {
  const error = new RuntimeError(data.code, data.syscall, data.path);
  error.message = data.message;
  return error;
}

export type WriteConflictReason = "changed" | "deleted" | "created" | "moved";

/**
 * A checked write (RuntimeFs.writeFileAtomic) found the file or its folder not as the caller expected,
 * and wrote nothing. Tools turn it into their own message (read the file again, try again).
 */
export class WriteConflict extends Error {
  constructor(
    readonly path: string,
    readonly reason: WriteConflictReason,
    /** For "changed": the file's mtime at the moment of the check. */
    readonly mtimeMs?: number,
  ) {
    super(conflictMessage(path, reason));
    this.name = "WriteConflict";
  }
}

export function isWriteConflict(error: unknown): error is WriteConflict {
  return error instanceof WriteConflict;
}

function conflictMessage(path: string, reason: WriteConflictReason): string {
  switch (reason) {
    case "changed":
      return `${path} changed since it was read; nothing was written`;
    case "deleted":
      return `${path} was deleted since it was read; nothing was written`;
    case "created":
      return `${path} was created by someone else meanwhile; nothing was written`;
    case "moved":
      return `the folder of ${path} now leads somewhere else (a link was made or changed on the way since the path was checked); nothing was written`;
  }
}
