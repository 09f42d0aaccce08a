/**
 * A text file as tools edit it: decoded, its BOM and line endings noted and set aside, so replacement
 * works on plain LF text and the file is written back exactly as it was shaped.
 */
const BOM = "\uFEFF";
// ignoreBOM keeps the BOM in the text, so it can be noticed and written back.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();

export interface TextShape {
  bom: boolean;
  eol: "\n" | "\r\n";
}

export function decodeText(bytes: Uint8Array): { text: string; shape: TextShape } {
  let text = decoder.decode(bytes);
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return { text: eol === "\r\n" ? text.replace(/\r\n/g, "\n") : text, shape: { bom, eol } };
}

/** LF text back to the file's own shape. */
export function encodeText(text: string, shape: TextShape): Uint8Array {
  const body = shape.eol === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text;
  return encoder.encode(shape.bom ? BOM + body : body);
}

export function toLf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}
