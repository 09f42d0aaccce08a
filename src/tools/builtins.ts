/**
 * The built-in tools, in OpenCode's order: the one list of them. The registry offers them in this order
 * (then custom tools), and an id not listed here is not a built-in.
 */
import { ApplyPatchTool } from "./apply_patch.js";
import { BashTool } from "./bash.js";
import { BatchTool } from "./batch.js";
import { CodeSearchTool } from "./codesearch.js";
import { EditTool } from "./edit.js";
import { ExecuteTool } from "./execute.js";
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
import { PatchTool } from "./patch.js";
import { ReadTool } from "./read.js";
import { ShellTool } from "./shell.js";
import { SkillTool } from "./skill.js";
import { SubagentTool } from "./subagent.js";
import { TaskTool } from "./task.js";
import { TodoReadTool } from "./todoread.js";
import { TodoWriteTool } from "./todowrite.js";
import type { Info } from "./tool.js";
import { WebFetchTool } from "./webfetch.js";
import { WebSearchTool } from "./websearch.js";
import { WriteTool } from "./write.js";

export const builtinTools: Info[] = [
  InvalidTool,
  QuestionTool,
  BashTool,
  // OpenCode V2's names for bash, apply_patch and task sit beside them; the registry offers one set or the other.
  ShellTool,
  ReadTool,
  GlobTool,
  GrepTool,
  ListTool,
  EditTool,
  MultiEditTool,
  WriteTool,
  ApplyPatchTool,
  PatchTool,
  TaskTool,
  SubagentTool,
  WebFetchTool,
  TodoWriteTool,
  TodoReadTool,
  WebSearchTool,
  CodeSearchTool,
  SkillTool,
  LspTool,
  BatchTool,
  ExecuteTool,
  PlanEnterTool,
  PlanExitTool,
  PreviewTool,
];

/** The built-in ids, in order. */
export const BUILTIN_IDS: readonly string[] = builtinTools.map((tool) => tool.id);
