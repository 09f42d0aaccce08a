/** Where a run of the loop stands while it runs, and how it ended: what the chat shows and the caller reads. */

export type ChatStatus =
  | { type: "idle" }
  | { type: "busy"; step: number }
  /** Waiting to retry a provider error: `next` is when (epoch ms), for a countdown. */
  | { type: "retry"; attempt: number; next: number; message: string };

export type LoopEnd = "done" | "aborted" | "blocked" | "max-steps" | "error";
