// ZenFS expects node's Buffer as a global; the browser has none.
import { Buffer } from "buffer";

(globalThis as { Buffer?: unknown }).Buffer ??= Buffer;
