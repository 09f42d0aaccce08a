/**
 * What a tool part in the transcript needs beyond its call: the questions its call waits on, and a way to
 * open a task's subagent session. ChatPane provides it; a transcript without it shows plain cards.
 */
import { createContext, useContext } from "solid-js";
import type { ChatView } from "../../session/chat/chat-view.js";

export interface SessionToolsUI {
  /** The view whose transcript is shown (the main session or a subagent's). */
  view: () => ChatView;
  /** Shows a subagent's session in place of the current one, with a breadcrumb back. */
  openChild(sessionID: string): void;
}

export const SessionToolsContext = createContext<SessionToolsUI>();

export const useSessionTools = () => useContext(SessionToolsContext);
