/** What the preview's e2e stories share: npm tarballs unpacked, files uploaded as a zip, the Preview tab. */
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { expect } from "./fixtures.js";

/** The files of an npm tarball (`npm pack`), under `package/`, as name → bytes. */
function untar(tgz: Buffer): Map<string, Uint8Array> {
  const tar = gunzipSync(tgz);
  const files = new Map<string, Uint8Array>();
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    const name = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    if (!name) break;
    const prefix = header.subarray(345, 500).toString("utf8").replace(/\0.*$/s, "");
    const size = Number.parseInt(header.subarray(124, 136).toString("utf8").replace(/\0.*$/s, "").trim() || "0", 8);
    const type = String.fromCharCode(header[156]!);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === "0" || type === "\0") files.set(prefix ? `${prefix}/${name}` : name, new Uint8Array(body));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

export async function packageFiles(tarball: string, into: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const [name, bytes] of untar(await readFile(new URL(`./fixtures/preview/${tarball}`, import.meta.url)))) {
    files[`${into}/${name.replace(/^package\//, "")}`] = bytes;
  }
  return files;
}

export async function upload(page: Page, files: Record<string, Uint8Array | string>): Promise<void> {
  const entries = Object.fromEntries(
    Object.entries(files).map(([name, value]) => [name, typeof value === "string" ? strToU8(value) : value]),
  );
  await page
    .getByTestId("upload-zip")
    .setInputFiles({ name: "app.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(entries)) });
  await expect(page.getByTestId("notice")).toContainText(`Imported ${Object.keys(files).length} files`);
}

export const frame = (page: Page) => page.frameLocator("[data-testid=preview-frame]");

export async function openPreview(page: Page, path?: string): Promise<void> {
  await page.getByTestId("tab-preview").click();
  if (path !== undefined) {
    await page.getByTestId("preview-address").fill(path);
    await page.getByTestId("preview-address").press("Enter");
  }
}
