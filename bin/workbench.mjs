#!/usr/bin/env node
// The `workbench` command: the CLI's bundle (scripts/cli-bundle.mjs builds it again when a source changed).

// Before anything else runs, the bundler included (it starts a helper process): the keys leave this
// process's environment, and /proc/<pid>/environ, for its memory, so no command it starts can read them
// from its parent. The bundle imports this same module (never a copy of it), so it finds the keys held here.
import { BUILTIN_KEY_VARIABLES, holdStartEnvironment, withLoaderEnvironment } from "../src/cli/held-environment.mjs";
import { cliBundle } from "../scripts/cli-bundle.mjs";

for (const problem of holdStartEnvironment(BUILTIN_KEY_VARIABLES)) {
  process.stderr.write(`workbench: note: commands may read the keys in /proc/${process.pid}/environ: ${problem}\n`);
}
let entry;
try {
  await withLoaderEnvironment(async () => {
    entry = await cliBundle();
  });
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
