#!/usr/bin/env node
// The `workbench` command: the CLI's bundle (scripts/cli-bundle.mjs builds it again when a source changed).
import { cliBundle } from "../scripts/cli-bundle.mjs";

let entry;
try {
  entry = await cliBundle();
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `workbench: could not build the command from its sources: ${reason}\nFix the source named above, or run npm install if a package is missing.\n`,
  );
  process.exit(1);
}
// Stack traces name our TypeScript sources, not the bundle's lines.
process.setSourceMapsEnabled(true);
await import(entry);
