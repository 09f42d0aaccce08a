/**
 * The held-out part of the edit-accuracy corpus. Same generator and kinds as bench/edit-corpus.ts, but
 * another seed and other real files (this repository's own sources, none of which the tuning corpus
 * uses). Rule: no threshold, strategy or heuristic of the edit engine is chosen by looking at this
 * corpus's cases or its per-kind results; it only reports how the engine does on cases it was not fitted
 * to. If a number here moves, the reason must be found on the tuning corpus.
 */
import type { CorpusSpec } from "./edit-corpus.js";

export const HELD_OUT_CORPUS: CorpusSpec = {
  seed: 0x4e1d_0016,
  sources: [
    "src/tools/bash/derive.ts",
    "src/search/regex/parse.ts",
    "src/search/walk.ts",
    "src/session/page-chat.ts",
    "src/search/regex/unicode.ts",
    "src/search/regex/literals.ts",
    "src/tools/patch/parse.ts",
    "src/session/loop.ts",
    "src/session/agent/load.ts",
    "src/ui/tools/SettingsDialog.tsx",
    "src/session/chat.ts",
    "src/runtime/node/index.ts",
  ],
  casesPerKind: 10,
};
