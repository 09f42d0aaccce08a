/**
 * A recorded session as an export holds it, for share links in e2e stories: each turn's person's message,
 * one assistant step per call, then a closing "Turn N done." text.
 */
import type { SessionFile } from "../src/session/record/session-json.js";

export type RecordedTurn = { prompt: string; calls: { tool: string; input: Record<string, unknown> }[] };

export function recordedSession(title: string, turns: RecordedTurn[]): SessionFile {
  const sessionID = "ses_turns";
  const messages: SessionFile["session"]["messages"] = [];
  const calls: SessionFile["session"]["calls"] = [];
  let n = 0;
  const time = () => 1_700_000_000_000 + n++ * 1000;
  const tokens = { input: 100, output: 10, reasoning: 0, cache: { read: 0, write: 0 } };
  const assistant = (id: string, parentID: string, parts: unknown[], finish: string) =>
    messages.push({
      id,
      sessionID,
      role: "assistant",
      parentID,
      time: { created: time(), completed: time() },
      agent: "build",
      providerID: "anthropic",
      modelID: "claude-sonnet-4",
      parts: [
        { id: `${id}_s`, messageID: id, type: "step-start" },
        ...parts,
        { id: `${id}_f`, messageID: id, type: "step-finish", reason: finish, tokens, cost: 0 },
      ] as never,
      finish,
      tokens,
      cost: 0,
    });
  turns.forEach((turn, t) => {
    const user = `msg_u${t}`;
    messages.push({
      id: user,
      sessionID,
      role: "user",
      time: { created: time() },
      agent: "build",
      model: { providerID: "anthropic", modelID: "claude-sonnet-4" },
      parts: [{ id: `${user}_p`, messageID: user, type: "text", text: turn.prompt }],
    });
    turn.calls.forEach((call, c) => {
      const id = `msg_a${t}_${c}`;
      const callID = `call_${t}_${c}`;
      calls.push({
        id: callID,
        sessionID,
        messageID: id,
        tool: call.tool,
        input: call.input,
        status: "completed",
        title: call.tool,
        metadata: {},
        output: "(recorded)",
        permissions: [],
        time: { created: time(), start: time(), end: time() },
      });
      assistant(
        id,
        user,
        [{ id: `${id}_c`, messageID: id, type: "tool", providerCallID: `toolu_${t}_${c}`, callID, tool: call.tool }],
        "tool-calls",
      );
    });
    assistant(`msg_e${t}`, user, [{ id: `msg_e${t}_t`, messageID: `msg_e${t}`, type: "text", text: `Turn ${t + 1} done.` }], "stop");
  });
  return {
    format: "workbench-session",
    version: 1,
    session: { id: sessionID, title, agent: "build", createdAt: 1_700_000_000_000, messages, calls },
  };
}
