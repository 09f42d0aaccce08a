/**
 * A custom tool runs with a time limit and the call's abort: the call ends with a clear error when the
 * limit passes or the call is aborted, and the tool is told to stop through `ctx.abort` (which also
 * stops the commands it runs with that signal). Workspace code runs in this thread, so a tool that never
 * awaits (a synchronous endless loop) cannot be interrupted: no timer fires until it yields.
 */
import type { Info } from "../tool.js";

/** The bash tool's default: a custom tool gets as long as a command. */
export const DEFAULT_CUSTOM_TOOL_TIMEOUT_MS = 2 * 60 * 1000;

class CustomToolTimeoutError extends Error {
  override readonly name = "CustomToolTimeoutError";
}

function seconds(ms: number): string {
  return Number.isInteger(ms / 1000) ? String(ms / 1000) : (ms / 1000).toFixed(1);
}

export function withTimeLimit(info: Info, timeoutMs: number = DEFAULT_CUSTOM_TOOL_TIMEOUT_MS): Info {
  return {
    id: info.id,
    async init(initCtx) {
      const initialized = await info.init(initCtx);
      return {
        ...initialized,
        async execute(args, ctx) {
          const stop = new AbortController();
          const onAbort = () => stop.abort(ctx.abort.reason);
          if (ctx.abort.aborted) onAbort();
          else ctx.abort.addEventListener("abort", onAbort, { once: true });
          let timer: ReturnType<typeof setTimeout> | undefined;
          const limit = new Promise<never>((_, reject) => {
            // A pending timer also keeps node running: a tool that never settles ends in this error,
            // not in node's silent exit for an unsettled top-level await (code 13).
            timer = setTimeout(() => {
              const error = new CustomToolTimeoutError(
                `the custom tool ${info.id} did not finish within ${seconds(timeoutMs)} s and was told to stop ` +
                  "(ctx.abort). Make it finish sooner, or raise experimental.tool_timeout (milliseconds) in opencode.json.",
              );
              reject(error);
              stop.abort(error);
            }, timeoutMs);
            stop.signal.addEventListener(
              "abort",
              () => reject(new Error(`The call was aborted before the custom tool ${info.id} finished.`)),
              { once: true },
            );
          });
          try {
            return await Promise.race([initialized.execute(args, { ...ctx, abort: stop.signal }), limit]);
          } finally {
            clearTimeout(timer);
            ctx.abort.removeEventListener("abort", onAbort);
            // A tool still running after its call ended has nothing more to do.
            if (!stop.signal.aborted) stop.abort(new Error("the call is over"));
          }
        },
      };
    },
  };
}
