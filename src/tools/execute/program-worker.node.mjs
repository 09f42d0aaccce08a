// worker_threads cannot load TypeScript by themselves: register tsx's loader in this thread, then load the
// real entry. (The CLI's bundle starts its own compiled entry instead: scripts/cli-bundle.mjs.)
import { register } from "tsx/esm/api";

register();
await import("./program-worker.node.ts");
