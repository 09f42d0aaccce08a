/** The built-in tools that exist so far, in any order (the registry orders them). */
import { ApplyPatchTool } from "./apply_patch.js";
import { BashTool } from "./bash.js";
import { BatchTool } from "./batch.js";
import { CodeSearchTool } from "./codesearch.js";
import { EditTool } from "./edit.js";
import { GlobTool } from "./glob.js";
import { GrepTool } from "./grep.js";
import { InvalidTool } from "./invalid.js";
import { ListTool } from "./list.js";
import { LspTool } from "./lsp.js";
import { MultiEditTool } from "./multiedit.js";
import { PlanEnterTool } from "./plan_enter.js";
import { PlanExitTool } from "./plan_exit.js";
import { PreviewTool } from "./preview.js";
import { QuestionTool } from "./question.js";
import { ReadTool } from "./read.js";
import { SkillTool } from "./skill.js";
import { TaskTool } from "./task.js";
import { TodoReadTool } from "./todoread.js";
import { TodoWriteTool } from "./todowrite.js";
import type { Info } from "./tool.js";
import { WebFetchTool } from "./webfetch.js";
import { WebSearchTool } from "./websearch.js";
import { WriteTool } from "./write.js";

export const builtinTools: Info[] = [
  InvalidTool,
  BashTool,
  ReadTool,
  GlobTool,
  GrepTool,
  ListTool,
  EditTool,
  MultiEditTool,
  WriteTool,
  ApplyPatchTool,
  TaskTool,
  TodoWriteTool,
  TodoReadTool,
  SkillTool,
  QuestionTool,
  BatchTool,
  PlanEnterTool,
  PlanExitTool,
  WebFetchTool,
  WebSearchTool,
  CodeSearchTool,
  LspTool,
  PreviewTool,
];
