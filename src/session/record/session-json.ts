/**
 * Sessions as JSON files: export writes the conversation and its calls (nothing else: no keys, no
 * workspace files); import validates the file against the schemas, names the first problem by its path
 * in the file, and gives everything new ids, so an import never overwrites a session that exists.
 *
 * Ids must be unique within the file (messages, parts, calls; and each call named by one tool part only),
 * and every call a tool part names must belong to a message in the file: renumbering could not tell
 * colliding or foreign ids apart, so such a file is refused rather than re-pointed. A call no part names
 * was run by hand (the palette, a replayed list): its message id is its own, and is renumbered like any.
 */
import { z } from "zod";
import { markInterrupted, type SessionRecord, type ToolCall } from "./session-record.js";
import { TodoItem } from "../../tools/ports/session-services.js";
import { ascendingId } from "./ids.js";
import { Message } from "./message.js";
import { errorMessage } from "../../base/error-message.js";

const SESSION_FILE_FORMAT = "workbench-session";

const CallPermission = z.object({
  permission: z.string(),
  patterns: z.array(z.string()),
  always: z.array(z.string()),
  answer: z.enum(["allow", "deny", "once", "always", "reject", "pending"]),
  message: z.string().optional(),
});

/** Only pasted bytes and workspace paths: an imported file must not make the page fetch anything. */
const SafeUrl = z.string().refine((url) => url.startsWith("data:") || url.startsWith("file://"), "must be a data: or file:// URL");

const CallAttachment = z.object({
  id: z.string(),
  sessionID: z.string(),
  messageID: z.string(),
  type: z.literal("file"),
  mime: z.string(),
  url: SafeUrl,
  filename: z.string().optional(),
});

const ToolCallSchema = z.object({
  id: z.string(),
  sessionID: z.string(),
  messageID: z.string(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
  status: z.enum(["pending", "running", "completed", "error", "interrupted"]),
  title: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  output: z.string().optional(),
  error: z.string().optional(),
  attachments: z.array(CallAttachment).optional(),
  permissions: z.array(CallPermission),
  time: z.object({ created: z.number(), start: z.number().optional(), end: z.number().optional(), compacted: z.number().optional() }),
}) satisfies z.ZodType<ToolCall>;

const SafeMessage = Message.superRefine((message, ctx) => {
  message.parts.forEach((part, index) => {
    if (part.type === "file" && !SafeUrl.safeParse(part.url).success) {
      ctx.addIssue({ code: "custom", path: ["parts", index, "url"], message: "must be a data: or file:// URL" });
    }
  });
});

/** How deep subagent sessions may nest in a file (a child starts tasks only when its rules allow). */
const MAX_CHILD_DEPTH = 16;

interface SessionBodyShape {
  id: string;
  title: string;
  agent: string;
  createdAt: number;
  messages: Message[];
  calls: ToolCall[];
  todos?: Array<z.infer<typeof TodoItem> & { id: string }>;
  parentID?: string;
  children?: SessionBodyShape[];
}

const SessionBody: z.ZodType<SessionBodyShape> = z.lazy(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    agent: z.string(),
    createdAt: z.number(),
    messages: z.array(SafeMessage),
    calls: z.array(ToolCallSchema),
    /** The todo list, when the session has one. */
    todos: z.array(TodoItem.extend({ id: z.string() })).optional(),
    /** A subagent session's parent. */
    parentID: z.string().optional(),
    /** The subagent sessions its task calls started (a task_id names one). */
    children: z.array(SessionBody).optional(),
  }),
);

export const SessionFile = z.object({
  format: z.literal(SESSION_FILE_FORMAT),
  version: z.literal(1),
  session: SessionBody,
});
export type SessionFile = z.infer<typeof SessionFile>;

function bodyOf(record: SessionRecord): SessionBodyShape {
  return {
    id: record.id,
    title: record.title,
    agent: record.agent,
    createdAt: record.createdAt,
    messages: record.messages,
    calls: record.calls,
    ...(record.todos ? { todos: record.todos } : {}),
    ...(record.parentID !== undefined ? { parentID: record.parentID } : {}),
    ...(record.children && record.children.length > 0 ? { children: record.children.map(bodyOf) } : {}),
  };
}

export function exportSession(record: SessionRecord): string {
  const { parentID: _parent, ...session } = bodyOf(record);
  const file: SessionFile = { format: SESSION_FILE_FORMAT, version: 1, session };
  return JSON.stringify(file, null, 2);
}

/** Refuses children nested past MAX_CHILD_DEPTH before the schema walks them (a deep file would overflow the stack). */
function checkDepth(data: unknown): void {
  let level: unknown[] = [(data as { session?: unknown } | null)?.session];
  for (let depth = 0; level.length > 0; depth++) {
    const next = level.flatMap((node) => {
      const children = node && typeof node === "object" ? (node as { children?: unknown }).children : undefined;
      return Array.isArray(children) ? children : [];
    });
    if (next.length > 0 && depth + 1 > MAX_CHILD_DEPTH) {
      throw new SessionImportError(
        `This session file cannot be imported: its subagent sessions nest more than ${MAX_CHILD_DEPTH} deep. Export the session again.`,
      );
    }
    level = next;
  }
}

export class SessionImportError extends Error {
  override readonly name = "SessionImportError";
}

/** A session from an exported file, with new ids throughout. Throws SessionImportError saying what is wrong and where. */
export function importSession(json: string): SessionRecord {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new SessionImportError(
      `This is not a session file: it is not valid JSON (${errorMessage(error)}). Choose a file made by Export.`,
    );
  }
  checkDepth(data);
  const parsed = SessionFile.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join(".") : "the top level";
    throw new SessionImportError(
      `This session file cannot be imported: at ${where}: ${issue.message}. Export the session again, or fix that field.`,
    );
  }
  const { session } = parsed.data;
  checkReferences(session);
  const sessionIds = uniqueIds("session");
  sessionIds(session.id, "session.id");
  const checkChildren = (parent: SessionBodyShape, at: string) =>
    parent.children?.forEach((child, c) => {
      const where = `${at}.children.${c}`;
      sessionIds(child.id, `${where}.id`);
      checkReferences(child, where);
      checkChildren(child, where);
    });
  checkChildren(session, "session");
  const root = renumber(session);
  // Children keep their ids (the parent's task calls and outputs name them as task_id); only the link to
  // the renumbered root changes.
  const children = session.children?.map((child) => ({ ...childRecord(child), parentID: root.id }));
  return markInterrupted(children ? { ...root, children } : root);
}

function childRecord(body: SessionBodyShape): SessionRecord {
  return {
    id: body.id,
    title: body.title,
    agent: body.agent,
    createdAt: body.createdAt,
    messages: body.messages,
    calls: body.calls,
    ...(body.todos ? { todos: body.todos } : {}),
    ...(body.parentID !== undefined ? { parentID: body.parentID } : {}),
    ...(body.children ? { children: body.children.map((child) => ({ ...childRecord(child), parentID: body.id })) } : {}),
  };
}

function refuse(where: string, problem: string): never {
  throw new SessionImportError(
    `This session file cannot be imported: at ${where}: ${problem}. Export the session again, or fix that field.`,
  );
}

/** Remembers ids seen so far; the second use of one is refused, naming both places. */
function uniqueIds(kind: string) {
  const seen = new Map<string, string>();
  return (id: string, where: string) => {
    const first = seen.get(id);
    if (first !== undefined) refuse(where, `the ${kind} id "${id}" is also used at ${first}`);
    seen.set(id, where);
  };
}

function checkReferences(session: SessionBodyShape, at = "session"): void {
  const messageId = uniqueIds("message");
  const partId = uniqueIds("part");
  const callId = uniqueIds("call");
  const toolPartFor = uniqueIds("call");
  session.messages.forEach((message, m) => messageId(message.id, `${at}.messages.${m}.id`));
  session.calls.forEach((call, c) => callId(call.id, `${at}.calls.${c}.id`));
  const calls = new Set(session.calls.map((call) => call.id));
  const callTools = new Map(session.calls.map((call) => [call.id, call.tool]));
  const messages = new Set(session.messages.map((message) => message.id));
  session.messages.forEach((message, m) => {
    if (message.role === "assistant" && message.parentID !== "" && !messages.has(message.parentID)) {
      refuse(`${at}.messages.${m}.parentID`, `no message has the id "${message.parentID}"`);
    }
    message.parts.forEach((part, p) => {
      partId(part.id, `${at}.messages.${m}.parts.${p}.id`);
      if (part.type !== "tool") return;
      if (!calls.has(part.callID)) refuse(`${at}.messages.${m}.parts.${p}.callID`, `no call has the id "${part.callID}"`);
      // A replay runs the part's tool while the card shows the call's: the two must be one tool.
      const callTool = callTools.get(part.callID);
      if (callTool !== undefined && callTool !== part.tool)
        refuse(`${at}.messages.${m}.parts.${p}.tool`, `the part names the tool "${part.tool}" but its call is "${callTool}"`);
      toolPartFor(part.callID, `${at}.messages.${m}.parts.${p}.callID`);
    });
  });
  const named = new Set(
    session.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === "tool" ? [part.callID] : []))),
  );
  session.calls.forEach((call, c) => {
    if (!named.has(call.id)) return;
    if (!messages.has(call.messageID)) refuse(`${at}.calls.${c}.messageID`, `no message has the id "${call.messageID}"`);
    call.attachments?.forEach((attachment, a) => {
      if (!messages.has(attachment.messageID))
        refuse(`${at}.calls.${c}.attachments.${a}.messageID`, `no message has the id "${attachment.messageID}"`);
    });
  });
}

function renumber(session: SessionBodyShape): SessionRecord {
  const sessionID = ascendingId("ses");
  const messageIDs = new Map(session.messages.map((message) => [message.id, ascendingId("msg")]));
  const callIDs = new Map(session.calls.map((call) => [call.id, ascendingId("call")]));
  // References from messages and model calls were checked to name a message in the file; a hand-run
  // call's own message id gets a new one here (shared by calls that shared it).
  const messageID = (id: string) => {
    let next = messageIDs.get(id);
    if (next === undefined) messageIDs.set(id, (next = ascendingId("msg")));
    return next;
  };
  const messages = session.messages.map((message): Message => {
    const id = messageID(message.id);
    const parts = message.parts.map((part) => ({
      ...part,
      id: ascendingId("prt"),
      messageID: id,
      ...(part.type === "tool" ? { callID: callIDs.get(part.callID)! } : {}),
    }));
    return message.role === "assistant"
      ? { ...message, id, sessionID, parentID: message.parentID === "" ? "" : messageID(message.parentID), parts }
      : { ...message, id, sessionID, parts };
  });
  const calls = session.calls.map(
    (call): ToolCall => ({
      ...call,
      id: callIDs.get(call.id)!,
      sessionID,
      messageID: messageID(call.messageID),
      ...(call.attachments ? { attachments: call.attachments.map((a) => ({ ...a, sessionID, messageID: messageID(a.messageID) })) } : {}),
    }),
  );
  return {
    id: sessionID,
    title: session.title,
    agent: session.agent,
    createdAt: session.createdAt,
    messages,
    calls,
    ...(session.todos ? { todos: session.todos } : {}),
  };
}
