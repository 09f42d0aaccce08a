/**
 * How a session gets a trusted workspace's own code: its custom tools as registry tools, its plugins' hooks,
 * and what failed to load. The CLI loads them into its own process (its person runs their own machine);
 * the page runs them in a sandbox apart from the workbench's storage (sandbox/client.ts).
 */
import type { Runtime } from "../../runtime/types.js";
import type { Info } from "../tool.js";
import type { LoadedPlugin, LoadProblem } from "./loader.js";

export interface WorkspaceCode {
  tools: Info[];
  plugins: LoadedPlugin[];
  problems: LoadProblem[];
}

export type WorkspaceCodeLoader = (runtime: Runtime, dirs: string[]) => Promise<WorkspaceCode>;
