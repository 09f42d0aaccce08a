import { afterEach, describe, expect, it } from "vitest";
import { exportSession, importSession, SessionImportError } from "../../../src/session/record/session-json.js";
import { ScriptedLanguageModel } from "../../../src/session/provider/scripted.js";
import { loopOnce, resolved } from "../../support/loop.js";
import { sessionWith } from "../../support/tool-session.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

async function recordedSession() {
  const made = await sessionWith({ "a.txt": "alpha\n" });
  disposers.push(made.dispose);
  const model = new ScriptedLanguageModel({
    version: 1,
    steps: [
      { reasoning: "Look first.", toolCalls: [{ tool: "read", input: { filePath: `${made.runtime.root}/a.txt` } }] },
      { text: "It says alpha." },
    ],
  });
  await loopOnce(made.session, resolved(model), "what is in a.txt?");
  made.session.session.title = "Reading a";
  return made.session.session;
}

describe("session export and import", () => {
  it("round-trips a session under new ids, every reference renumbered", async () => {
    const original = await recordedSession();
    const imported = importSession(exportSession(original));
    expect(imported.id).not.toBe(original.id);
    expect(imported.title).toBe("Reading a");
    expect(imported.messages.map((m) => m.role)).toEqual(original.messages.map((m) => m.role));
    const oldIDs = new Set([...original.messages.map((m) => m.id), ...original.calls.map((c) => c.id)]);
    for (const message of imported.messages) {
      expect(oldIDs.has(message.id)).toBe(false);
      expect(message.sessionID).toBe(imported.id);
      if (message.role === "assistant") expect(imported.messages.some((m) => m.id === message.parentID)).toBe(true);
      for (const part of message.parts) {
        expect(part.messageID).toBe(message.id);
        if (part.type === "tool") {
          const call = imported.calls.find((c) => c.id === part.callID);
          expect(call?.messageID).toBe(message.id);
          expect(call?.sessionID).toBe(imported.id);
        }
      }
    }
    // Same content, only ids differ.
    const strip = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/"(ses|msg|prt|call)_[0-9a-z]+"/g, '"id"'));
    expect(strip(imported.messages)).toEqual(strip(original.messages));
    expect(strip(imported.calls)).toEqual(strip(original.calls));
  });

  it("refuses a file that is not JSON, saying so", () => {
    expect(() => importSession("{ nope")).toThrow(SessionImportError);
    expect(() => importSession("{ nope")).toThrow(/not valid JSON/);
  });

  it("refuses a hostile file, naming where the problem is", async () => {
    const original = await recordedSession();
    const file = JSON.parse(exportSession(original));
    file.session.messages[0].parts.push({
      id: "x",
      messageID: file.session.messages[0].id,
      type: "file",
      mime: "text/html",
      url: "javascript:alert(1)",
    });
    expect(() => importSession(JSON.stringify(file))).toThrow(/at session\.messages\.0\.parts\.1\.url: must be a data: or file:\/\/ URL/);

    const wrongType = JSON.parse(exportSession(original));
    wrongType.session.calls[0].status = "owned";
    expect(() => importSession(JSON.stringify(wrongType))).toThrow(/at session\.calls\.0\.status/);

    const dangling = JSON.parse(exportSession(original));
    const toolPart = dangling.session.messages[1].parts.find((p: { type: string }) => p.type === "tool");
    toolPart.callID = "call_missing";
    expect(() => importSession(JSON.stringify(dangling))).toThrow(/callID: no call has the id "call_missing"/);

    expect(() => importSession(JSON.stringify({ format: "something-else", version: 1, session: {} }))).toThrow(/at format/);
  });

  it("refuses colliding ids, calls of no message in the file, and negative counts, naming where", async () => {
    const original = await recordedSession();
    const exported = () => JSON.parse(exportSession(original));
    const refused = (file: unknown) => () => importSession(JSON.stringify(file));

    const twoMessages = exported();
    twoMessages.session.messages[2].id = twoMessages.session.messages[1].id;
    twoMessages.session.messages[2].parts.forEach((p: { messageID: string }) => (p.messageID = twoMessages.session.messages[1].id));
    expect(refused(twoMessages)).toThrow(/at session\.messages\.2\.id: the message id "msg_\w+" is also used at session\.messages\.1\.id/);

    const twoParts = exported();
    twoParts.session.messages[1].parts[1].id = twoParts.session.messages[0].parts[0].id;
    expect(refused(twoParts)).toThrow(
      /at session\.messages\.1\.parts\.1\.id: the part id "prt_\w+" is also used at session\.messages\.0\.parts\.0\.id/,
    );

    const twoCalls = exported();
    twoCalls.session.calls.push({ ...twoCalls.session.calls[0], input: { filePath: "/elsewhere" } });
    expect(refused(twoCalls)).toThrow(/at session\.calls\.1\.id: the call id "call_\w+" is also used at session\.calls\.0\.id/);

    const twoToolParts = exported();
    const tool = twoToolParts.session.messages[1].parts.find((p: { type: string }) => p.type === "tool");
    twoToolParts.session.messages[1].parts.push({ ...tool, id: "prt_another" });
    expect(refused(twoToolParts)).toThrow(
      /parts\.\d+\.callID: the call id "call_\w+" is also used at session\.messages\.1\.parts\.\d+\.callID/,
    );

    const foreign = exported();
    foreign.session.calls[0].messageID = "msg_someone_elses";
    expect(refused(foreign)).toThrow(/at session\.calls\.0\.messageID: no message has the id "msg_someone_elses"/);

    const negative = exported();
    negative.session.messages[1].cost = -5;
    expect(refused(negative)).toThrow(/at session\.messages\.1\.cost: /);
    const negativeTokens = exported();
    negativeTokens.session.messages[1].tokens.cache.read = -1;
    expect(refused(negativeTokens)).toThrow(/at session\.messages\.1\.tokens\.cache\.read: /);
    // Every refusal is the import's own error, with what to do next.
    expect(refused(foreign)).toThrow(SessionImportError);
    expect(refused(foreign)).toThrow(/Export the session again, or fix that field/);
  });

  it("marks an answer exported mid-stream as interrupted on import", async () => {
    const original = await recordedSession();
    const file = JSON.parse(exportSession(original));
    delete file.session.messages.at(-1).time.completed;
    const imported = importSession(JSON.stringify(file));
    expect(imported.messages.at(-1)).toMatchObject({ role: "assistant", error: { kind: "interrupted" } });
  });
});
