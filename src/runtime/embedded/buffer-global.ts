// isomorphic-git (the shell's `git`) expects node's Buffer as a global; a browser worker has none.
import { Buffer } from "buffer";

(globalThis as { Buffer?: unknown }).Buffer ??= Buffer;
