#!/usr/bin/env node
// The `workbench` command.
import "../src/cli/register.mjs";

const { endCommandsOnSignals } = await import("../src/cli/end-on-signal.ts");
endCommandsOnSignals();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
