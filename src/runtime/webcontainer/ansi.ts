import stripAnsi from "strip-ansi";

/**
 * Turns a PTY's output into plain text for the model: escapes stripped, CRLF made LF. An escape or a
 * CR split across two chunks is held back until the next chunk completes it.
 */
export class PtyTextDecoder {
  private held = "";

  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = "";
    const lastEsc = text.lastIndexOf("\x1b");
    if (lastEsc >= 0 && !isComplete(text.slice(lastEsc))) {
      this.held = text.slice(lastEsc);
      text = text.slice(0, lastEsc);
    }
    if (text.endsWith("\r")) {
      this.held = "\r" + this.held;
      text = text.slice(0, -1);
    }
    return clean(text);
  }

  end(): string {
    const rest = clean(this.held);
    this.held = "";
    return rest;
  }
}

/** Whether an escape sequence starting at the string's start is whole (CSI ends in a letter, OSC in BEL or ST). */
function isComplete(sequence: string): boolean {
  if (sequence.length < 2) return false;
  const kind = sequence[1];
  if (kind === "[") return /^\x1b\[[0-?]*[ -/]*[@-~]/.test(sequence);
  if (kind === "]") return /\x07|\x1b\\/.test(sequence.slice(2));
  return true;
}

function clean(text: string): string {
  return stripAnsi(text).replace(/\r+\n/g, "\n");
}
