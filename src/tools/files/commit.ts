/**
 * The one way the file tools write: to the real path they judged (assertExternalDirectory's answer), as one
 * checked step (RuntimeFs.writeFileAtomic): the folder must still be the one judged, a link at the name is
 * never followed, and the content must still be what the tool read, so a change made meanwhile by another
 * session, process or person is never overwritten. A conflict becomes the message the model should act on.
 */
import { dirname } from "pathe";
import { isRuntimeError, isWriteConflict } from "../../runtime/errors.js";
import { fingerprint, type Fingerprint } from "../../runtime/fingerprint.js";
import { modifiedSinceRead } from "../file-time.js";
import type { Context } from "../tool.js";

export interface Commit {
  /** The path as the tool was given it (resolved): what messages name and FileTime keys. */
  path: string;
  /** Where it really leads, as judged: what is written. */
  real: string;
  data: Uint8Array;
  /** The content the tool based its change on ("absent": it found no file). */
  expect: Fingerprint | "absent";
}

export async function commitWrite(ctx: Context, commit: Commit): Promise<void> {
  const { path, real, data, expect } = commit;
  const parent = dirname(real);
  try {
    // Missing folders are made by the checked write itself, none through a link swapped in since the check.
    await ctx.runtime.fs.writeFileAtomic(real, data, { expect, parent, makeParents: expect === "absent" });
  } catch (error) {
    if (!isWriteConflict(error)) throw error;
    const readAt = ctx.fileTime.get(ctx.sessionID, path);
    switch (error.reason) {
      case "changed":
        throw modifiedSinceRead(path, error.mtimeMs, readAt);
      case "deleted":
        throw new Error(
          `File ${path} has been deleted since it was last read; nothing was written. Read the path again to see what is there now.`,
        );
      case "created":
        throw new Error(`File ${path} was created by someone else while this call ran; nothing was written. Read it, then edit it.`);
      case "moved":
        throw new Error(
          `The path ${path} leads somewhere else than when it was checked (a link on the way was made or changed meanwhile); nothing was written. Check the path and try again.`,
        );
    }
  }
  const written = fingerprint(data);
  ctx.fileTime.read(ctx.sessionID, path, written);
  if (real !== path) ctx.fileTime.read(ctx.sessionID, real, written);
  ctx.bus.publish("file.edited", { file: path });
  if (real !== path) ctx.bus.publish("file.edited", { file: real });
}

/**
 * The file at the real path: its bytes, or undefined when there is none; a folder is an error. The read does
 * not follow a link at that path: one there now was made after the path was judged (or loops), and what it
 * leads to was never asked about.
 */
export async function readExisting(ctx: Context, real: string, path: string): Promise<Uint8Array | undefined> {
  try {
    return await ctx.runtime.fs.readFile(real, { noFollow: true });
  } catch (error) {
    if (!isRuntimeError(error)) throw error;
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    if (error.code === "EISDIR") throw new Error(`Path is a directory, not a file: ${path}`);
    if (error.code === "ELOOP") {
      throw new Error(
        `${path} is a symbolic link that loops, or one made while this call checked the path; nothing was read or written. Look at it with ls -l, then try again.`,
      );
    }
    throw error;
  }
}
