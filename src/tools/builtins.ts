/** The built-in tools that exist so far, in any order (the registry orders them). */
import { InvalidTool } from "./invalid.js";
import type { Info } from "./tool.js";

export const builtinTools: Info[] = [InvalidTool];
