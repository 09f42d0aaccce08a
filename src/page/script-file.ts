/**
 * Script files: the scripted provider's `Script` plus the person's message it answers, so a recorded
 * conversation can be replayed by the real loop from a file (the built-in demo is one). A plain Script
 * without a prompt is accepted too; it is sent with a stock message. A conversation of several turns
 * keeps its later messages, each with the model's steps answering it, in `turns`.
 */
import { z } from "zod";
import type { SessionRecord } from "../session/record/session-record.js";
import { Script, ScriptStep, scriptFromSession } from "../session/provider/scripted.js";
import { errorMessage } from "../base/error-message.js";

/** What a turn without the person's words sends (a plain Script has no prompt). */
const REPLAY_PROMPT = "Replay the recorded conversation.";

export const ScriptFile = Script.extend({
  /** What the person asked; sent as the user message before the script's steps play. */
  prompt: z.string().optional(),
  /** The person's later messages, in order, each followed by the model's steps answering it. */
  turns: z.array(z.object({ prompt: z.string(), steps: z.array(ScriptStep) })).optional(),
});
export type ScriptFile = z.infer<typeof ScriptFile>;

/** One message of the person's and the model's steps answering it. */
interface ScriptTurn {
  prompt: string;
  steps: ScriptStep[];
}

/** Every turn of a script file, in order: the first (its `prompt` and `steps`), then its `turns`. */
export function scriptTurns(file: ScriptFile): ScriptTurn[] {
  return [{ prompt: file.prompt ?? REPLAY_PROMPT, steps: file.steps }, ...(file.turns ?? [])];
}

class ScriptFileError extends Error {
  override name = "ScriptFileError";
}

/** Parses and validates a script file; the error names the first problem by its place in the file. */
export function parseScriptFile(text: string, source = "the script"): ScriptFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScriptFileError(`${source} is not JSON (${errorMessage(error)}): choose a file saved with "Save as script".`);
  }
  const result = ScriptFile.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "(top level)";
  throw new ScriptFileError(
    `${source}: ${where}: ${issue.message}. A script looks like {"version": 1, "prompt": "...", "steps": [{"text": "..."}]}.`,
  );
}

const promptOf = (message: SessionRecord["messages"][number]) =>
  message.parts.flatMap((part) => (part.type === "text" && !part.synthetic ? [part.text] : [])).join("\n");

/**
 * A session as a script file: the model's side of it, turn by turn, each after the person's message it
 * answered (a synthetic user message, such as a compaction's, starts no turn).
 */
export function scriptFileFromSession(record: SessionRecord): ScriptFile {
  const turns: { prompt: string | undefined; messages: SessionRecord["messages"] }[] = [{ prompt: undefined, messages: [] }];
  for (const message of record.messages) {
    const last = turns[turns.length - 1]!;
    const prompt = message.role === "user" ? promptOf(message) : "";
    if (prompt === "") last.messages.push(message);
    else if (last.prompt === undefined && last.messages.length === 0) last.prompt = prompt;
    else turns.push({ prompt, messages: [] });
  }
  const stepsOf = (messages: SessionRecord["messages"]) => scriptFromSession({ ...record, messages }).steps;
  const [first, ...rest] = turns;
  return {
    version: 1,
    ...(first!.prompt ? { prompt: first!.prompt } : {}),
    steps: stepsOf(first!.messages),
    ...(rest.length > 0 ? { turns: rest.map((turn) => ({ prompt: turn.prompt ?? REPLAY_PROMPT, steps: stepsOf(turn.messages) })) } : {}),
  };
}
