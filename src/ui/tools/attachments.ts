import type { FilePart } from "../../tools/tool.js";

/** `data:image/...` with an image type in both the part and the URL: nothing else is ever put in an <img>. */
const IMAGE_DATA_URL = /^data:(image\/[a-z0-9.+-]+)[;,]/i;

export function isInlineImage(part: FilePart): boolean {
  const match = IMAGE_DATA_URL.exec(part.url);
  return match !== null && part.mime.toLowerCase().startsWith("image/") && match[1]!.toLowerCase() === part.mime.toLowerCase();
}

/** What a person reads for an attachment: its file name, or its type when it has none. */
export function attachmentName(part: FilePart): string {
  return part.filename && part.filename.trim() !== "" ? part.filename : `unnamed ${part.mime} attachment`;
}
