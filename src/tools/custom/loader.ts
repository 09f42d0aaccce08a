import { basename, extname, join } from "pathe";
import type { Runtime } from "../../runtime/types.js";
import { renamed, type Info } from "../tool.js";
import { fromPlugin, isToolDefinition, isToolInfo } from "./from-plugin.js";
import { evaluateModule } from "./module-loader.js";
import type { Hooks, Plugin, PluginInput } from "./plugin-api.js";
import { errorMessage } from "../../base/error-message.js";

export interface LoadProblem {
  file: string;
  error: string;
}

/** The folders OpenCode scans: the workspace's `.opencode` and a global config folder. */
export function configDirectories(root: string, globalDir?: string): string[] {
  return [...(globalDir ? [globalDir] : []), join(root, ".opencode")];
}

/** Every custom tool and plugin file in the config folders: what a trusted workspace would run. */
export function workspaceCodeFiles(runtime: Runtime, dirs: string[]): Promise<string[]> {
  return moduleFiles(runtime, dirs, ["tool", "tools", "plugin", "plugins"]);
}

/** The tool files and the plugin files of the config folders, each list in the order it loads. */
export async function customCodeFiles(runtime: Runtime, dirs: string[]): Promise<{ tools: string[]; plugins: string[] }> {
  return { tools: await moduleFiles(runtime, dirs, ["tool", "tools"]), plugins: await moduleFiles(runtime, dirs, ["plugin", "plugins"]) };
}

async function moduleFiles(runtime: Runtime, dirs: string[], folders: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const dir of dirs) {
    for (const folder of folders) {
      const path = join(dir, folder);
      const entries = await runtime.fs.readdir(path).catch(() => []);
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.type !== "directory" && /\.(js|mjs|ts|mts)$/.test(entry.name)) files.push(join(path, entry.name));
      }
    }
  }
  return files;
}

async function load(runtime: Runtime, file: string): Promise<Record<string, unknown>> {
  const source = new TextDecoder().decode(await runtime.fs.readFile(file));
  return evaluateModule(source, file);
}

/**
 * Custom tools from `tool/` and `tools/` in each config folder: a default export is named after the
 * file, a named export `<file>_<export>`. Both shapes load: `tool({...})` and `Tool.define(...)`.
 * A file that fails to load is reported, never fatal.
 */
export async function loadCustomTools(
  runtime: Runtime,
  dirs: string[],
): Promise<{ tools: Info[]; problems: LoadProblem[]; files: string[] }> {
  const tools: Info[] = [];
  const problems: LoadProblem[] = [];
  const files = await moduleFiles(runtime, dirs, ["tool", "tools"]);
  for (const file of files) {
    const namespace = basename(file, extname(file));
    try {
      const exports = await load(runtime, file);
      let found = 0;
      for (const [name, value] of Object.entries(exports)) {
        if (name === "__esModule") continue;
        const id = name === "default" ? namespace : `${namespace}_${name}`;
        if (isToolInfo(value)) tools.push(renamed(value, id));
        else if (isToolDefinition(value)) tools.push(fromPlugin(id, value));
        else continue;
        found++;
      }
      if (found === 0) problems.push({ file, error: "exports no tool: export tool({ description, args, execute }) or Tool.define(...)" });
    } catch (error) {
      problems.push({ file, error: errorMessage(error) });
    }
  }
  return { tools, problems, files };
}

export interface LoadedPlugin {
  file: string;
  name: string;
  hooks: Hooks;
}

/** Plugins from `plugin/` and `plugins/`: every exported function is called once with the plugin input. */
export async function loadPlugins(
  runtime: Runtime,
  dirs: string[],
  input: PluginInput,
): Promise<{ plugins: LoadedPlugin[]; problems: LoadProblem[]; files: string[] }> {
  const plugins: LoadedPlugin[] = [];
  const problems: LoadProblem[] = [];
  const files = await moduleFiles(runtime, dirs, ["plugin", "plugins"]);
  for (const file of files) {
    try {
      const exports = await load(runtime, file);
      for (const [name, value] of Object.entries(exports)) {
        if (typeof value !== "function") continue;
        const hooks = await (value as Plugin)(input);
        plugins.push({ file, name, hooks: hooks ?? {} });
      }
    } catch (error) {
      problems.push({ file, error: errorMessage(error) });
    }
  }
  return { plugins, problems, files };
}
