import { dirname, join } from "pathe";
import type { WorkspaceFs } from "../workspace-fs.js";

/**
 * npm's cache in the embedded runtime: tarballs by their integrity (so a tarball is stored once and found
 * whatever URL served it) and the last packument fetched for each name, as files under the cache folder
 * (outside the workspace; in the page that is the workbench's IndexedDB store, so it survives reloads).
 */
export class NpmCache {
  constructor(
    private readonly files: WorkspaceFs,
    private readonly root: string,
  ) {}

  private tarballPath(integrity: string): string {
    // One file per SRI string, its base64 made safe for a file name.
    const key = integrity.trim().split(/\s+/)[0]!.replace(/\//g, "_").replace(/\+/g, "-").replace(/=+$/, "");
    return join(this.root, "content", key);
  }

  private packumentPath(registry: string, name: string): string {
    return join(this.root, "packuments", encodeURIComponent(`${registry}${name}`));
  }

  async readTarball(integrity: string): Promise<Uint8Array | undefined> {
    return this.read(this.tarballPath(integrity));
  }

  async writeTarball(integrity: string, bytes: Uint8Array): Promise<void> {
    await this.write(this.tarballPath(integrity), bytes);
  }

  async readPackument(registry: string, name: string): Promise<string | undefined> {
    const bytes = await this.read(this.packumentPath(registry, name));
    return bytes && new TextDecoder().decode(bytes);
  }

  async writePackument(registry: string, name: string, text: string): Promise<void> {
    await this.write(this.packumentPath(registry, name), text);
  }

  private async read(path: string): Promise<Uint8Array | undefined> {
    try {
      return await this.files.readFile(path);
    } catch {
      return undefined;
    }
  }

  /** A cache that cannot be written (a read-only workspace) only costs the next install a download. */
  private async write(path: string, data: Uint8Array | string): Promise<void> {
    try {
      await this.files.mkdir(dirname(path), { recursive: true });
      await this.files.writeFile(path, data);
    } catch {
      // Nothing to do: the install itself does not depend on the cache.
    }
  }
}
