/** What kind of file a path or its first bytes suggest: shared by the tools (read) and the workspace (the editor), so it sits below both. */
import { extname } from "pathe";

const BINARY_EXTENSIONS = new Set(
  ".zip .tar .gz .tgz .bz2 .xz .7z .rar .exe .dll .so .dylib .class .jar .war .bin .dat .obj .o .a .lib .wasm .pyc .pyo .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .sqlite .db .woff .woff2 .ttf .otf .eot .mp3 .mp4 .mov .avi .mkv .webm .ogg .wav .flac".split(
    " ",
  ),
);

const ATTACHMENT_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".ico": "image/x-icon",
  ".avif": "image/avif",
  ".pdf": "application/pdf",
};

/** Images and PDFs go to the model as attachments (SVG is text, and read as text). */
export function attachmentType(path: string): string | undefined {
  return ATTACHMENT_TYPES[extname(path).toLowerCase()];
}

export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).toLowerCase());
}

/** The first bytes of a file look binary: any NUL, or more than 30% control bytes that text does not use. */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let odd = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) odd++;
  }
  return odd / sample.length > 0.3;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
