import type { Hooks } from "./plugin-api.js";
import type { LoadedPlugin } from "./loader.js";
import { errorMessage } from "../../base/error-message.js";

/**
 * Runs one hook of every plugin in turn, each seeing what the earlier ones did to `output`.
 * Plugins may change fields of `output`; a hook that throws fails the call it belongs to.
 */
export async function triggerHook<K extends "tool.execute.before" | "tool.execute.after">(
  plugins: LoadedPlugin[],
  name: K,
  input: Parameters<NonNullable<Hooks[K]>>[0],
  output: Parameters<NonNullable<Hooks[K]>>[1],
  /** How long each hook may take (custom code gets the custom tools' limit); none when absent. */
  limitMs?: number,
  /** The call's abort: a hook still running then is left behind. */
  signal?: AbortSignal,
): Promise<void> {
  for (const plugin of plugins) {
    const hook = plugin.hooks[name] as ((i: typeof input, o: typeof output) => Promise<void>) | undefined;
    if (!hook) continue;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stop: (() => void) | undefined;
    try {
      const aborted = signal
        ? [
            new Promise<never>((_, reject) => {
              // Only an abort while the hook runs: an after hook still sees a call that was stopped earlier.
              stop = () => reject(new Error("the call was aborted"));
              if (!signal.aborted) signal.addEventListener("abort", stop, { once: true });
            }),
          ]
        : [];
      const limit =
        limitMs === undefined
          ? []
          : [
              new Promise<never>((_, reject) => {
                timer = setTimeout(
                  () => reject(new Error(`did not finish within ${limitMs / 1000} s (experimental.tool_timeout)`)),
                  limitMs,
                );
              }),
            ];
      await Promise.race([hook(input, output), ...limit, ...aborted]);
    } catch (error) {
      throw new Error(`plugin ${plugin.name} (${plugin.file}) failed in ${name}: ${errorMessage(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      if (stop) signal?.removeEventListener("abort", stop);
    }
  }
}
