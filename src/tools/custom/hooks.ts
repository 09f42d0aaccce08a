import type { Hooks } from "./plugin-api.js";
import type { LoadedPlugin } from "./loader.js";

/**
 * Runs one hook of every plugin in turn, each seeing what the earlier ones did to `output`.
 * Plugins may change fields of `output`; a hook that throws fails the call it belongs to.
 */
export async function triggerHook<K extends "tool.execute.before" | "tool.execute.after">(
  plugins: LoadedPlugin[],
  name: K,
  input: Parameters<NonNullable<Hooks[K]>>[0],
  output: Parameters<NonNullable<Hooks[K]>>[1],
): Promise<void> {
  for (const plugin of plugins) {
    const hook = plugin.hooks[name] as ((i: typeof input, o: typeof output) => Promise<void>) | undefined;
    if (!hook) continue;
    try {
      await hook(input, output);
    } catch (error) {
      throw new Error(`plugin ${plugin.name} (${plugin.file}) failed in ${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
