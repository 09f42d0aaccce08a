/** The built-in tools that exist so far, in any order (the registry orders them). */
import { ApplyPatchTool } from "./apply_patch.js";
import { BashTool } from "./bash.js";
import { EditTool } from "./edit.js";
import { GlobTool } from "./glob.js";
import { GrepTool } from "./grep.js";
import { InvalidTool } from "./invalid.js";
import { ListTool } from "./list.js";
import { LspTool } from "./lsp.js";
import { MultiEditTool } from "./multiedit.js";
import { ReadTool } from "./read.js";
import type { Info } from "./tool.js";
import { WriteTool } from "./write.js";

export const builtinTools: Info[] = [InvalidTool, BashTool, ReadTool, GlobTool, GrepTool, ListTool, EditTool, MultiEditTool, WriteTool, ApplyPatchTool, LspTool];
