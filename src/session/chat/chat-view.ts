/**
 * The conversation as the page sees it: what the UI reads (messages, status) and the intents it sends
 * (send, stop, pick an agent or a model). `Chat` in chat.ts implements it over the loop; the UI's chat
 * components take this interface, so they are tested with a plain object and no model.
 */
import type { ToolCall } from "../record/session-record.js";
import type { Message, ModelRef } from "../record/message.js";
import type { QuestionRequest } from "../host/questions.js";
import type { TodoItem } from "../../tools/ports/session-services.js";

import type { ChatStatus } from "../loop/loop-state.js";

export type { ChatStatus };

/** A file the person attached to a message: a workspace path (@path) or pasted bytes as a data: URL. */
export interface Attachment {
  mime: string;
  filename: string;
  url: string;
}

export interface SendInput {
  text: string;
  attachments?: Attachment[];
}

export interface AgentChoice {
  name: string;
  description?: string;
}

export interface ModelChoice extends ModelRef {
  name: string;
  /** Takes images. */
  attachment: boolean;
  /** A key is set (or none is needed). */
  ready: boolean;
}

export interface ChatView {
  readonly sessionID: string;
  messages(): readonly Message[];
  /** A tool part's call record (state, input, output, permissions). */
  call(callID: string): ToolCall | undefined;
  status(): ChatStatus;
  agent(): string;
  model(): ModelRef | undefined;
  agents(): AgentChoice[];
  models(): ModelChoice[];
  /** Called whenever a message or part changes (a text delta included) or the status does. */
  onChange(listener: () => void): () => void;

  send(input: SendInput): Promise<void>;
  /** Aborts the stream and every running tool at once; the parts so far stay. */
  stop(): void;
  setAgent(name: string): void;
  setModel(model: ModelRef): void;

  // The session tools' side of the view; optional, so a plain test double need not have them.
  /** The session's title (the breadcrumb names it). */
  title?(): string;
  /** The todo list todowrite keeps. */
  todos?(): readonly TodoItem[];
  /** The questions a call waits on, if it does. */
  question?(callID: string): QuestionRequest | undefined;
  /** One list of chosen labels (or typed text) per question. */
  answerQuestion?(id: string, answers: string[][]): void;
  dismissQuestion?(id: string): void;
  /** A subagent's session started by a task call of this session (or of its subagents), read-only. */
  child?(sessionID: string): ChatView | undefined;
  /** A subagent's session is only watched: nothing is sent from it. */
  readonly readOnly?: boolean;
}

/** A provider as the key dialog lists it: whether a key is set, never the key. */
export interface ProviderKeyStatus {
  id: string;
  name: string;
  /** A key is set for it now. */
  hasKey: boolean;
  /** The key is remembered on this device. */
  remembered?: boolean;
  /** Where requests go; for OpenAI-compatible providers the person sets it. */
  baseURL?: string;
  /** An OpenAI-compatible provider (a local server, say): its base URL can be changed and a key is optional. */
  compatible?: boolean;
  /** The model ids an OpenAI-compatible server runs, comma-separated. */
  models?: string;
}
