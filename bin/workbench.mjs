#!/usr/bin/env node
// The `workbench` command.

// Before anything else runs, the TypeScript loader included (it starts a helper process): the keys leave
// this process's environment, and /proc/<pid>/environ, for its memory, so no command it starts can read
// them from its parent.
import { BUILTIN_KEY_VARIABLES, holdStartEnvironment, withLoaderEnvironment } from "../src/cli/held-environment.mjs";

for (const problem of holdStartEnvironment(BUILTIN_KEY_VARIABLES)) {
  process.stderr.write(`workbench: note: commands may read the keys in /proc/${process.pid}/environ: ${problem}\n`);
}
await withLoaderEnvironment(() => import("../src/cli/register.mjs"));
const { endCommandsOnSignals } = await import("../src/cli/end-on-signal.ts");
endCommandsOnSignals();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
