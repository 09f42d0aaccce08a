/**
 * What the session tools (todowrite, todoread, task, question, plan_enter, plan_exit, skill, batch) need
 * from the session they run in. The tools layer cannot import the session layer, so it states here the
 * narrow services it uses; src/session implements them (session-services.ts) and hands them to each call
 * through `Context.session` and to `init` through `InitContext.session`.
 */
import { z } from "zod";

/** One entry of the session's todo list; status and priority are plain strings, as OpenCode has them. */
export const TodoItem = z.object({
  content: z.string().describe("Brief description of the task"),
  status: z.string().describe("Current status of the task: pending, in_progress, completed, cancelled"),
  priority: z.string().describe("Priority level of the task: high, medium, low"),
  id: z.string().optional().describe("Unique identifier for the todo item (kept from the previous list; given one when absent)"),
});
export type TodoInput = z.infer<typeof TodoItem>;
export type TodoItem = TodoInput & { id: string };

export interface SubagentInfo {
  name: string;
  description?: string;
}

export interface SkillInfo {
  name: string;
  description: string;
  /** The skill's SKILL.md, absolute. */
  location: string;
  /** Its folder, absolute. */
  dir: string;
  /** SKILL.md after its frontmatter. */
  content: string;
}

const QuestionOption = z.object({
  label: z.string().describe("Display text (1-5 words, concise)"),
  description: z.string().describe("Explanation of choice"),
});
export const QuestionItem = z.object({
  question: z.string().describe("Complete question"),
  header: z.string().describe("Very short label (max 30 chars)"),
  options: z.array(QuestionOption).describe("Available choices"),
  multiple: z.boolean().optional().describe("Allow selecting multiple choices"),
});
export type QuestionItem = z.infer<typeof QuestionItem> & {
  /** Whether the person may type their own answer (default true). */
  custom?: boolean;
};

/** The person closed the questions without answering: the call fails and the run stops. */
export class QuestionDismissedError extends Error {
  override readonly name = "QuestionDismissedError";
  constructor() {
    super("The user dismissed this question");
  }
}

export interface TaskRequest {
  description: string;
  prompt: string;
  subagent: string;
  /** A child session of this session to continue. */
  taskID?: string;
}

export interface TaskProgress {
  sessionID: string;
  /** Calls the child has made so far. */
  calls: number;
  /** The tool the child is running now, if any. */
  tool?: string;
  /** That call's id (the page shows a question it waits on in the task's card). */
  callID?: string;
  /** Whether that call waits on the person's answer to a question. */
  asking?: boolean;
}

export interface TaskResult {
  sessionID: string;
  /** The child's last text. */
  text: string;
  model: { providerID: string; modelID: string };
}

export interface BatchCallResult {
  callID: string;
  status: "completed" | "error";
  output?: string;
  error?: string;
}

/** What `init` may know about the session (to describe the tool). */
export interface SessionCatalog {
  /** Subagents `task` may start, as the caller's rules allow. */
  subagents(): SubagentInfo[];
  /** Skills found in the workspace and global config folders. */
  skills(): SkillInfo[];
}

/** What a running call may do to its session. */
export interface SessionServices extends SessionCatalog {
  todos(): TodoItem[];
  /** Replaces the list whole. */
  setTodos(todos: TodoItem[]): void;
  /**
   * Runs a subagent in a child session (or continues one) to its end; aborts with `signal` (a background
   * job's own), else with the call.
   */
  task(request: TaskRequest, progress: (progress: TaskProgress) => void, signal?: AbortSignal): Promise<TaskResult>;
  /** Asks the person; one list of chosen labels (or typed text) per question. Throws QuestionDismissedError. */
  ask(questions: QuestionItem[]): Promise<string[][]>;
  /** Hands the session to another primary agent, telling it why in a synthetic user message. */
  switchAgent(agent: "plan" | "build", text: string): void;
  /** Whether this is a subagent's session: it may not switch to a primary agent (plan_enter, plan_exit). */
  isSubagent(): boolean;
  /** The session's plan file, relative to the workspace (`.opencode/plans/<session>.md`). */
  planPath(): string;
  /** Ids of the tools this session's registry holds (batch runs only those). */
  toolIds(): string[];
  /**
   * Runs another tool as its own call of this session (for batch), with its own card and prompts;
   * `onStart` learns the call's id before it runs. `signal` aborts it earlier than the calling call's own
   * abort (execute ends its inner calls when its program stops at a limit).
   */
  runTool(
    tool: string,
    parameters: Record<string, unknown>,
    onStart?: (callID: string) => void,
    signal?: AbortSignal,
  ): Promise<BatchCallResult>;
}
