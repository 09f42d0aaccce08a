/**
 * The terminal's scrollback across a reload: its lines are kept (as text, for the life of the tab) and
 * written back, dimmed, above the first prompt after the reload. Works on any xterm-like terminal
 * through the few calls below, so the terminal view only hands its terminal over.
 */
import { SaveLater } from "../base/save-later.js";

export interface ScrollbackTerminal {
  readonly buffer: {
    readonly active: {
      readonly length: number;
      readonly cursorY: number;
      readonly baseY: number;
      getLine(y: number): { isWrapped: boolean; translateToString(trimRight?: boolean): string } | undefined;
    };
  };
  write(data: string): void;
  onWriteParsed(listener: () => void): { dispose(): void };
}

/** Lines kept at most (the terminal holds 5,000; a reload brings back the recent part). */
export const KEPT_LINES = 1000;
/** And characters at most, so one huge line cannot fill the tab's storage. */
const KEPT_CHARS = 200_000;

/** The terminal's lines as text: wrapped rows joined back into their line, the prompt being typed left out. */
export function scrollbackText(term: ScrollbackTerminal): string {
  const buffer = term.buffer.active;
  const cursorLine = buffer.baseY + buffer.cursorY;
  const lines: string[] = [];
  for (let y = 0; y < Math.min(buffer.length, cursorLine); y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  // The row the cursor is on is the live prompt: it is drawn afresh after the reload.
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  let kept = lines.slice(-KEPT_LINES).join("\n");
  if (kept.length > KEPT_CHARS) kept = kept.slice(kept.length - KEPT_CHARS).replace(/^[^\n]*\n/, "");
  return kept;
}

/** What a restored scrollback looks like on screen: the old lines dimmed, then a line saying where they end. */
export function restoredScreen(text: string): string {
  if (text === "") return "";
  // Escapes in the saved text are not replayed: it is shown as the plain text it was saved as.
  const plain = text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
  return `\x1b[2m${plain.replace(/\n/g, "\r\n")}\x1b[0m\r\n\x1b[2m── restored after the reload ──\x1b[0m\r\n`;
}

/**
 * Writes back what was kept under `key` and keeps the scrollback there from now on (a second after
 * output settles, and when the page is hidden or left). Returns the function that stops it.
 */
export function keepScrollback(
  term: ScrollbackTerminal,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined,
  key: string,
): () => void {
  try {
    term.write(restoredScreen(storage?.getItem(key) ?? ""));
  } catch {
    // Nothing readable was kept.
  }
  const later = new SaveLater(() => {
    try {
      storage?.setItem(key, scrollbackText(term));
    } catch {
      // Storage full or refused: the next reload starts with an empty terminal.
    }
  }, 1000);
  const written = term.onWriteParsed(() => later.touch());
  const onHide = () => later.flush();
  window.addEventListener("pagehide", onHide);
  document.addEventListener("visibilitychange", onHide);
  return () => {
    written.dispose();
    later.stop();
    window.removeEventListener("pagehide", onHide);
    document.removeEventListener("visibilitychange", onHide);
  };
}
