/**
 * Text from a model or a tool made safe to write to a terminal. A model's answer or a tool's title can
 * hold escape sequences that a terminal would obey (OSC 52 writes the clipboard, CSI 2J clears the
 * screen, OSC 8 hides a link's target); printed for people they must show as nothing, not act.
 */
import stripAnsi from "strip-ansi";

// C0 controls but \t and \n (a \r could overwrite a line already shown), DEL, and the C1 range, which
// some terminals read as 8-bit escape introducers.
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** `text` without ANSI/OSC escape sequences and without control characters other than newline and tab. */
export function terminalSafe(text: string): string {
  return stripAnsi(text).replace(CONTROLS, "");
}

// JSON.stringify escapes C0 controls (so ESC is written as \u001b) but writes DEL and C1 as they are.
const UNESCAPED_IN_JSON = /[\u007F-\u009F]/g;

/** `value` as one JSON line with every control character escaped, so the line itself carries none. */
export function jsonLine(value: unknown): string {
  const json = JSON.stringify(value).replace(UNESCAPED_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `${json}\n`;
}
