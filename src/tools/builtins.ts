/** The built-in tools that exist so far, in any order (the registry orders them). */
import { ApplyPatchTool } from "./apply_patch.js";
import { BashTool } from "./bash.js";
import { CodeSearchTool } from "./codesearch.js";
import { EditTool } from "./edit.js";
import { GlobTool } from "./glob.js";
import { GrepTool } from "./grep.js";
import { InvalidTool } from "./invalid.js";
import { ListTool } from "./list.js";
import { MultiEditTool } from "./multiedit.js";
import { ReadTool } from "./read.js";
import type { Info } from "./tool.js";
import { WebFetchTool } from "./webfetch.js";
import { WebSearchTool } from "./websearch.js";
import { WriteTool } from "./write.js";

export const builtinTools: Info[] = [InvalidTool, BashTool, ReadTool, GlobTool, GrepTool, ListTool, EditTool, MultiEditTool, WriteTool, ApplyPatchTool, WebFetchTool, WebSearchTool, CodeSearchTool];
