/**
 * Runs a workspace's JavaScript or TypeScript module (a custom tool or a plugin) in this page or
 * process. TypeScript is stripped and imports become `require` calls (sucrase), and `require` knows
 * only the modules such files use: `@opencode-ai/plugin` and `zod` resolve to this project's.
 */
import { transform } from "sucrase";
import * as zod from "zod";
import * as pluginApi from "./plugin-api.js";

const provided: Record<string, unknown> = {
  "@opencode-ai/plugin": { __esModule: true, ...pluginApi, default: pluginApi },
  "@opencode-ai/plugin/tool": { __esModule: true, ...pluginApi, default: pluginApi },
  zod: { __esModule: true, ...zod, default: zod.z },
  "zod/v4": { __esModule: true, ...zod, default: zod.z },
};

export function evaluateModule(source: string, filename: string): Record<string, unknown> {
  const isTs = /\.[cm]?tsx?$/.test(filename);
  const { code } = transform(source, {
    transforms: isTs ? ["typescript", "imports"] : ["imports"],
    filePath: filename,
    production: true,
  });
  const module = { exports: {} as Record<string, unknown> };
  const require = (specifier: string) => {
    if (specifier in provided) return provided[specifier];
    throw new Error(
      `${filename}: cannot import "${specifier}": custom tools here may import only @opencode-ai/plugin and zod (bundle anything else into the file)`,
    );
  };
  // The file's own code, as OpenCode would import it; it runs only in a trusted workspace.
  const run = new Function("require", "module", "exports", `${code}\n//# sourceURL=${filename}`);
  run(require, module, module.exports);
  return module.exports;
}
