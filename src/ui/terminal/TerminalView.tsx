import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";
import { createEffect, onCleanup, onMount } from "solid-js";
import type { ShellSession } from "../../workspace/shell-session.js";
import type { ThemeName } from "../theme.js";
import { LineEditor, type EditorEffect } from "./line-editor.js";
import { terminalTheme } from "./terminal-theme.js";
import { errorMessage } from "../../base/error-message.js";

function promptFor(cwd: string, root: string): string {
  const shown = cwd === root ? "~" : cwd.startsWith(`${root}/`) ? `~${cwd.slice(root.length)}` : cwd;
  return `\x1b[1;32muser@workbench\x1b[0m:\x1b[1;34m${shown}\x1b[0m$ `;
}

/** Output for xterm: LF becomes CRLF (the shell's output is plain text, not PTY output). */
const toScreen = (text: string) => text.replace(/\r?\n/g, "\r\n");

export function TerminalView(props: {
  shell: ShellSession;
  root: () => string;
  readOnly: boolean;
  theme: () => ThemeName;
  /** Handed the terminal once it is open, before the first prompt (the page restores its scrollback there). */
  onOpen?: (term: Terminal) => void;
}) {
  let host!: HTMLDivElement;

  onMount(() => {
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
      fontSize: 13,
      scrollback: 5000,
      convertEol: false,
      screenReaderMode: false,
      theme: terminalTheme(props.theme()),
    });
    createEffect(() => (term.options.theme = terminalTheme(props.theme())));
    const fitAddon = new FitAddon();
    term.loadAddon(fitAddon);
    term.open(host);
    const refit = () => {
      try {
        // What FitAddon's fit does, spelt out: the size that fills the host, applied when it changed.
        const size = fitAddon.proposeDimensions();
        if (size && (size.cols !== term.cols || size.rows !== term.rows)) term.resize(size.cols, size.rows);
      } catch {
        // Not laid out yet.
      }
    };
    refit();
    props.onOpen?.(term);
    const observer = new ResizeObserver(refit);
    observer.observe(host);

    const editor = new LineEditor();
    editor.columns = term.cols;
    term.onResize(({ cols }) => (editor.columns = cols));
    let running: AbortController | undefined;

    const apply = (effects: EditorEffect[]) => {
      for (const effect of effects) {
        if (effect.kind === "write") term.write(effect.text);
        else if (effect.kind === "clear-screen") term.clear();
        else if (effect.kind === "interrupt") {
          term.write("^C\r\n");
          apply(editor.start(promptFor(props.shell.cwd, props.root())));
        } else if (effect.kind === "submit") void run(effect.line);
        else if (effect.kind === "complete") {
          const request = effect;
          props.shell.complete(request.before).then(
            (result) => !running && apply(editor.completed(request, result)),
            () => term.write("\x07"),
          );
        }
      }
    };

    async function run(line: string): Promise<void> {
      const command = line.trim();
      if (command === "") return apply(editor.start(promptFor(props.shell.cwd, props.root())));
      if (command === "clear") {
        term.clear();
        term.write("\x1b[2J\x1b[H");
        return apply(editor.start(promptFor(props.shell.cwd, props.root())));
      }
      running = new AbortController();
      host.dataset.busy = "true";
      try {
        const result = await props.shell.run(command, {
          signal: running.signal,
          onOutput: (chunk) => term.write(chunk.stream === "stderr" ? `\x1b[31m${toScreen(chunk.text)}\x1b[0m` : toScreen(chunk.text)),
        });
        const ended = result.output.length === 0 || result.output.endsWith("\n");
        if (!ended) term.write("\r\n");
        if (result.aborted) term.write("^C\r\n");
        else if (result.timedOut) term.write("\x1b[33m[stopped: timed out]\x1b[0m\r\n");
      } catch (error) {
        term.write(`\x1b[31m${toScreen(errorMessage(error))}\x1b[0m\r\n`);
      } finally {
        running = undefined;
        delete host.dataset.busy;
      }
      apply(editor.start(promptFor(props.shell.cwd, props.root())));
    }

    term.onData((data) => {
      if (running) {
        // No stdin for commands: the only key that means anything now is Ctrl-C.
        if (data.includes("\x03")) running.abort();
        return;
      }
      apply(editor.feed(data));
    });

    if (props.readOnly) term.write("\x1b[33mRead-only workspace: commands can read files but not change them.\x1b[0m\r\n");
    apply(editor.start(promptFor(props.shell.cwd, props.root())));
    term.focus();

    onCleanup(() => {
      observer.disconnect();
      running?.abort();
      term.dispose();
    });
  });

  return <div class="terminal-host" data-testid="terminal" ref={host} aria-label="Terminal" role="region" />;
}
