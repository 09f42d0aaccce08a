/**
 * Script files: the scripted provider's `Script` plus the person's message it answers, so a recorded
 * conversation can be replayed by the real loop from a file (the built-in demo is one). A plain Script
 * without a prompt is accepted too; it is sent with a stock message.
 */
import { z } from "zod";
import type { SessionRecord } from "../session/record/session-record.js";
import { Script, scriptFromSession } from "../session/provider/scripted.js";
import { errorMessage } from "../base/error-message.js";

export const ScriptFile = Script.extend({
  /** What the person asked; sent as the user message before the script's steps play. */
  prompt: z.string().optional(),
});
export type ScriptFile = z.infer<typeof ScriptFile>;

export const REPLAY_PROMPT = "Replay the recorded conversation.";

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

/** A session as a script file: the model's side of it, and the first thing the person asked. */
export function scriptFileFromSession(record: SessionRecord): ScriptFile {
  const script = scriptFromSession(record);
  const first = record.messages.find((message) => message.role === "user");
  const prompt = first?.parts.flatMap((part) => (part.type === "text" && !part.synthetic ? [part.text] : [])).join("\n");
  return { ...script, ...(prompt ? { prompt } : {}) };
}
