/**
 * Which backend this process's language services use: the page registers its worker, the CLI TypeScript
 * in this thread. A module of its own so the page's entry can choose without loading the service.
 */
import type { BackendFactory } from "../lsp/backend.js";

let chosen: BackendFactory | undefined;

export function useLanguageBackend(factory: BackendFactory | undefined): void {
  chosen = factory;
}

export function languageBackend(): BackendFactory | undefined {
  return chosen;
}
