#!/usr/bin/env node
// The `workbench` command: the CLI's bundle (scripts/cli-bundle.mjs builds it again when a source changed).
import { cliBundle } from "../scripts/cli-bundle.mjs";

// Stack traces name our TypeScript sources, not the bundle's lines.
process.setSourceMapsEnabled(true);
await import(await cliBundle());
