import { join, relative } from "pathe";

/**
 * The `node_modules/.bin` entry for a package's bin. npm makes a symbolic link to the script and the
 * kernel reads its `#!/usr/bin/env node` line; the embedded shell reads no such line, so the entry is
 * a small shell script that hands the file to `node` (or to bash when the bin is itself a shell
 * script), found relative to the entry so the project folder may move.
 */
export function binShim(binDir: string, target: string, targetHead: string): string {
  const fromBin = relative(binDir, target);
  const interpreter = /^#!\s*\/(usr\/)?bin\/(env\s+)?(ba)?sh\b/.test(targetHead) ? "bash" : "node";
  return `#!/bin/sh\n# npm bin entry (embedded shell): runs ${fromBin} with ${interpreter}\n${interpreter} "$(dirname "$0")/${fromBin}" "$@"\n`;
}

/** The `.bin` folder a package's bins go in: its parent's node_modules/.bin. */
export function binDirOf(projectDir: string, location: string, name: string): string {
  return join(projectDir, location.slice(0, location.length - name.length), ".bin");
}
