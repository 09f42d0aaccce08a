#!/usr/bin/env node
// The `workbench` command: TypeScript sources run through tsx, `?raw` imports through our hook.
import { register } from "node:module";
import { register as registerTsx } from "tsx/esm/api";

registerTsx();
register("../src/cli/raw-loader.mjs", import.meta.url);
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
