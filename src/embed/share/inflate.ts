import { Inflate } from "fflate";
import { ShareError } from "./state.js";
import { errorMessage } from "../../base/error-message.js";

/** Input fed to the inflater at a time: small, so one step cannot make much more than the cap allows. */
const STEP = 1024;

/**
 * Raw deflate undone with a cap on what it makes: the count is checked as each piece comes out, so a
 * bomb (a few KB that inflate to gigabytes) is stopped near `maxBytes` instead of filling memory.
 */
export function inflateCapped(data: Uint8Array, maxBytes: number): Uint8Array {
  const pieces: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const inflater = new Inflate((piece, final) => {
    total += piece.length;
    if (total > maxBytes) {
      throw new ShareError(
        `it unpacks to more than ${Math.round(maxBytes / 1024 / 1024)} MB, the most a link may hold: it may be hostile (a decompression bomb). Nothing was written.`,
      );
    }
    pieces.push(piece);
    if (final) ended = true;
  });
  try {
    for (let at = 0; at < data.length; at += STEP) inflater.push(data.subarray(at, at + STEP), at + STEP >= data.length);
    if (data.length === 0) inflater.push(new Uint8Array(), true);
  } catch (error) {
    if (error instanceof ShareError) throw error;
    throw new ShareError(
      `its data is damaged (${errorMessage(error)}): the link was probably cut short when it was copied. Ask for the whole link, or the .workbench.json file.`,
    );
  }
  if (!ended)
    throw new ShareError(
      "its data ends too early: the link was cut short when it was copied. Ask for the whole link, or the .workbench.json file.",
    );
  const out = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}
