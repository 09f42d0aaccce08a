/** Shared pieces of the component tests: call records in each state, and a laid-out scroll box. */
import type { ToolCall } from "../../src/session/record/session-record.js";

let next = 0;

export function callOf(overrides: Partial<ToolCall> = {}): ToolCall {
  next++;
  return {
    id: `call_${next}`,
    sessionID: "ses_test",
    messageID: `msg_${next}`,
    tool: "bash",
    input: { command: "echo hi", description: "Says hi" },
    status: "completed",
    title: "Says hi",
    metadata: {},
    permissions: [],
    time: { created: 1_000, start: 1_000, end: 1_250 },
    ...overrides,
  };
}

/**
 * happy-dom lays nothing out: every box is 0 px tall, so a virtual list would think no row is in view.
 * Boxes here report a 400 px viewport, as a card's output box has in the page.
 */
export function layOutBoxes(height = 400, width = 600): void {
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: height, right: width, width, height, toJSON: () => ({}) };
  HTMLElement.prototype.getBoundingClientRect = function getBoundingClientRect() {
    return rect as DOMRect;
  };
  for (const [name, value] of [
    ["offsetHeight", height],
    ["offsetWidth", width],
    ["clientHeight", height],
    ["clientWidth", width],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => value });
  }
}
