import { defineCommand, type Command } from "just-bash/browser";
import type { Endpoint } from "../endpoint.js";
import { LIVE_OUTPUT_VARIABLE, liveStreamsOf, liveWriter, withoutMarker, type LiveOutputMark } from "../live-output.js";
import { isFromBridge, type ToBridge } from "./protocol.js";

/** Bytes as just-bash carries them (one char per byte). */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return text;
}

/** What the first run says while the interpreter (some megabytes of WebAssembly) loads. */
const LOADING_NOTE = new TextEncoder().encode("python3: loading the Python interpreter (first run only)...\n");

/**
 * `python3` and `python` in the embedded shell: the command line goes to the bridge beside the files
 * (bridge.ts), which runs it in the Pyodide sandbox; output comes back as bytes. Stdin is what the shell
 * hands the command (a pipe, a redirection, a here-document), read whole before the program starts.
 */
export function createPythonCommands(endpoint: Endpoint, live?: LiveOutputMark, pipCommand?: Command): Command[] {
  let nextId = 1;
  // `python3 -m pip` is the shell's pip (pip/command.ts): it fetches, which the sandbox never does.
  const run = (args: string[], ctx: Parameters<Command["execute"]>[1]) =>
    pipCommand && (args[0] === "-m" || args[0] === "-mpip") && (args[0] === "-mpip" || args[1] === "pip")
      ? pipCommand.execute(args.slice(args[0] === "-mpip" ? 1 : 2), ctx)
      : runInSandbox(args, ctx);
  const runInSandbox = (args: string[], ctx: Parameters<Command["execute"]>[1]) =>
    new Promise<{ stdout: string; stderr: string; exitCode: number; stdoutKind: "bytes" }>((resolve) => {
      const id = nextId++;
      const stdout: Uint8Array[] = [];
      const stderr: Uint8Array[] = [];
      const marked = ctx.exportedEnv ?? Object.fromEntries(ctx.env);
      // A marked call (live-output.ts) writes its output as the program does.
      const writeLive = liveWriter(ctx.fs, liveStreamsOf(live, marked[LIVE_OUTPUT_VARIABLE]));
      const stop = endpoint.listen((message) => {
        if (!isFromBridge(message) || message.id !== id) return;
        if (message.kind === "python-output") {
          if (!writeLive(message.stream, message.data)) (message.stream === "stderr" ? stderr : stdout).push(message.data);
        } else if (message.kind === "python-loading") {
          // Said only where a person watches (the terminal, the card): never into a file or a pipe.
          writeLive("stderr", LOADING_NOTE);
        } else {
          stop();
          ctx.signal?.removeEventListener("abort", abort);
          const joined = (parts: Uint8Array[]) => latin1(concat(parts));
          resolve({
            stdout: joined(stdout),
            stderr: new TextDecoder().decode(concat(stderr)),
            exitCode: message.exitCode,
            stdoutKind: "bytes",
          });
        }
      });
      const abort = () => endpoint.post({ kind: "python-stop", id } satisfies ToBridge);
      ctx.signal?.addEventListener("abort", abort, { once: true });
      const stdinText = ctx.stdin as unknown as string;
      const env = withoutMarker(marked);
      endpoint.post({
        kind: "python-run",
        id,
        argv: args,
        cwd: ctx.cwd,
        env,
        stdin: Uint8Array.from(stdinText, (char) => char.charCodeAt(0) & 0xff),
      } satisfies ToBridge);
    });
  const commands = [defineCommand("python3", run), defineCommand("python", run)];
  if (pipCommand) return commands;
  // Without the shell's pip, pip is answered as `python3 -m pip` is by the driver: the same words, exit code 1.
  const pip = async (args: string[], ctx: Parameters<Command["execute"]>[1]) => run(["-m", "pip", ...args], ctx);
  return [...commands, defineCommand("pip", pip), defineCommand("pip3", pip)];
}

function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
