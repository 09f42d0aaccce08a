// worker_threads cannot load TypeScript by themselves: register tsx's loader in this thread, then
// load the real entry.
import { register } from "tsx/esm/api";

register();
await import("./search-thread.ts");
