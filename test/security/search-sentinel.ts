/**
 * A folder outside every fixture holding a sentinel file of known bytes: after each attack, nothing
 * there may have changed (bytes, modification time, the folder's listing). Works on any runtime's
 * files: on node it sits beside the workspace on disk, on embedded beside /workspace in its memory.
 */
import { expect } from "vitest";
import type { Runtime } from "../../src/runtime/types.js";

export const SENTINEL_TEXT = "SENTINEL-7f3a outside the workspace: never to be read or changed\n";

export interface Sentinel {
  /** The outside folder (absolute). */
  folder: string;
  /** The sentinel file in it. */
  file: string;
  /** Asserts the folder holds exactly what it held when made, byte for byte. */
  assertUnchanged(): Promise<void>;
}

/** Makes `<parent of the workspace>/outside/sentinel.txt` (plus `extra` files) and remembers it. */
export async function makeSentinel(runtime: Runtime, extra: Record<string, string> = {}): Promise<Sentinel> {
  const folder = `${runtime.root.replace(/\/[^/]*$/, "")}/outside`;
  const file = `${folder}/sentinel.txt`;
  await runtime.fs.mkdir(folder, { recursive: true });
  await runtime.fs.writeFile(file, SENTINEL_TEXT);
  for (const [name, text] of Object.entries(extra)) await runtime.fs.writeFile(`${folder}/${name}`, text);
  const names = async () => (await runtime.fs.readdir(folder)).map((entry) => `${entry.name}:${entry.type}`).sort();
  const before = { names: await names(), mtimeMs: (await runtime.fs.stat(file)).mtimeMs };
  return {
    folder,
    file,
    async assertUnchanged() {
      expect(await names()).toEqual(before.names);
      expect(new TextDecoder().decode(await runtime.fs.readFile(file))).toBe(SENTINEL_TEXT);
      expect((await runtime.fs.stat(file)).mtimeMs).toBe(before.mtimeMs);
    },
  };
}
