/** The page's language backend: TypeScript in a module worker of its own (a separate bundle, fetched on first use). */
import { workerBackend } from "../lsp/worker-client.js";

export const pageLanguageBackend = workerBackend(
  () => new Worker(new URL("../lsp/worker.ts", import.meta.url), { type: "module", name: "language-service" }),
);
