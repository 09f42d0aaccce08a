/**
 * The CLI's output made printable for `workbench open` and `share`, whose messages quote strings from a
 * link or a shared folder (paths, names, parser errors that echo their input). Anything a terminal could
 * obey or that hides text (ESC and the other C0 controls, DEL, the C1 range, bidirectional and zero-width
 * format characters, line separators, lone surrogates) is written as a visible escape such as `\x1b`, so
 * a hostile link cannot write the clipboard (OSC 52), retitle the window, fake a line or conceal text.
 * Newlines stay: the messages' own line ends are ours.
 */
import type { CliIO } from "./cli-session.js";

const UNPRINTABLE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

function printableText(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.codePointAt(0)!;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/** `io` with everything written through it made printable. */
export function printableIO(io: CliIO): CliIO {
  return {
    out: (text) => io.out(printableText(text)),
    err: (text) => io.err(printableText(text)),
    stdin: () => io.stdin(),
    ...(io.stdinIsTTY !== undefined ? { stdinIsTTY: io.stdinIsTTY } : {}),
  };
}
