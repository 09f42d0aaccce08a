/**
 * The bytes a link's payload is made of, before compression: a manifest (JSON) and then every file's
 * content, one after another. Contents stay out of the JSON so binary files cost their bytes, not a
 * third more of base64, and so text compresses as the text it is.
 *
 *   [4 bytes: manifest length, big-endian] [manifest, UTF-8 JSON] [file 1 bytes] [file 2 bytes] ...
 *
 * The manifest: { n?: name, f: [[path, size, 1 when bytes]...], c?: config, s?: session, v?: view }.
 */
import { z } from "zod";
import { SessionFile } from "../../session/record/session-json.js";
import { nestsDeeperThan } from "./json-depth.js";
import { MAX_JSON_DEPTH, MAX_SHARE_FILES } from "./limits.js";
import { printable } from "./paths.js";
import { ShareError, ShareState, ViewOptions } from "./state.js";
import { errorMessage } from "../../base/error-message.js";

const Manifest = z.strictObject({
  n: z.string().optional(),
  f: z
    .array(
      z.union([z.tuple([z.string(), z.number().int().nonnegative()]), z.tuple([z.string(), z.number().int().nonnegative(), z.literal(1)])]),
    )
    .max(MAX_SHARE_FILES, `it holds more than ${MAX_SHARE_FILES} files`),
  c: z.string().optional(),
  s: SessionFile.optional(),
  v: ViewOptions.optional(),
});

const encoder = new TextEncoder();

export function pack(state: ShareState): Uint8Array {
  const contents = Object.entries(state.files).map(([path, content]) => ({
    path,
    bytes: typeof content === "string" ? encoder.encode(content) : content,
    binary: typeof content !== "string",
  }));
  const manifest: z.infer<typeof Manifest> = {
    ...(state.name !== undefined ? { n: state.name } : {}),
    f: contents.map(({ path, bytes, binary }) => (binary ? [path, bytes.length, 1] : [path, bytes.length])),
    ...(state.config !== undefined ? { c: state.config } : {}),
    ...(state.session !== undefined ? { s: state.session } : {}),
    ...(state.view !== undefined ? { v: state.view } : {}),
  };
  const head = encoder.encode(JSON.stringify(manifest));
  const total = 4 + head.length + contents.reduce((sum, { bytes }) => sum + bytes.length, 0);
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, head.length);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const { bytes } of contents) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

/** The state a payload holds. Throws ShareError naming the first problem; paths are checked by the caller. */
export function unpack(data: Uint8Array): ShareState {
  if (data.length < 4) throw new ShareError("its data is too short to be a share: the link was cut short when it was copied.");
  const headLength = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0);
  if (4 + headLength > data.length)
    throw new ShareError("its data ends inside its list of files: the link was cut short when it was copied.");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(data.subarray(4, 4 + headLength)));
  } catch (error) {
    throw new ShareError(`its list of files is not readable (${printable(errorMessage(error))}): the link is damaged.`);
  }
  if (nestsDeeperThan(json, MAX_JSON_DEPTH))
    throw new ShareError(
      `its data nests deeper than ${MAX_JSON_DEPTH} levels, more than a share may: it may be hostile. Nothing was written.`,
    );
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) throw new ShareError(`it is not a workbench share: ${describeIssue(parsed.error)}.`);
  const manifest = parsed.data;
  const declared = manifest.f.reduce((sum, entry) => sum + entry[1], 0);
  if (4 + headLength + declared !== data.length) {
    throw new ShareError(
      `its files add up to ${declared} bytes but it carries ${data.length - 4 - headLength}: the link is damaged or was cut short.`,
    );
  }
  const entries: [string, string | Uint8Array][] = [];
  const seen = new Set<string>();
  // ignoreBOM keeps a leading BOM as a character: the file must come back byte for byte.
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let at = 4 + headLength;
  for (const [path, size, binary] of manifest.f) {
    const bytes = data.slice(at, at + size);
    at += size;
    if (seen.has(path)) throw new ShareError(`"${printable(path)}" is listed twice: the link is damaged.`);
    seen.add(path);
    if (binary === 1) entries.push([path, bytes]);
    else {
      try {
        entries.push([path, text.decode(bytes)]);
      } catch {
        throw new ShareError(`"${printable(path)}" is marked as text but is not UTF-8: the link is damaged.`);
      }
    }
  }
  return {
    ...(manifest.n !== undefined ? { name: manifest.n } : {}),
    // fromEntries makes own properties, so a file named __proto__ stays a file.
    files: Object.fromEntries(entries),
    ...(manifest.c !== undefined ? { config: manifest.c } : {}),
    ...(manifest.s !== undefined ? { session: manifest.s } : {}),
    ...(manifest.v !== undefined ? { view: manifest.v } : {}),
  };
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  // Keys and messages can quote the hostile input itself (an unknown key's name): shown as printable text.
  const where = issue.path.length > 0 ? `at ${printable(issue.path.map(String).join("."))}: ` : "";
  return `${where}${printable(issue.message)}`;
}
