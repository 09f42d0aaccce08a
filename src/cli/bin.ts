/** What `bin/workbench.mjs` runs (from the CLI's bundle, scripts/cli-bundle.mjs): the command, ended cleanly on signals. */
import { endCommandsOnSignals } from "./end-on-signal.js";
import { main } from "./main.js";

endCommandsOnSignals();
process.exitCode = await main(process.argv.slice(2));
