/** The content type the preview serves a workspace file with, by its extension. */
import { posix } from "pathe";

const MIME: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  css: "text/css",
  js: "text/javascript",
  json: "application/json",
  html: "text/html",
  txt: "text/plain",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
  webm: "video/webm",
  wasm: "application/wasm",
};

export function mimeType(path: string): string {
  return MIME[posix.extname(path).slice(1).toLowerCase()] ?? "application/octet-stream";
}
