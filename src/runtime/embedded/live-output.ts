/**
 * Output of a running program (`node`, `python3`) while it runs, not only when it ends. just-bash gives a
 * command no writer: it returns its output as a string, which the interpreter then sends where the
 * command's redirections say. So the command has to be told that its output would reach the stream
 * devices of statement-stream.ts untouched: the streaming plugin marks such a command with a prefix
 * assignment (`WORKBENCH_LIVE_OUTPUT=<nonce>:stdout,stderr`) when nothing of the user's sends that stream
 * elsewhere (no redirection of its own, not piped on, not inside a `$( )` for stdout). A marked command
 * writes each chunk to the device as it arrives and returns nothing for that stream, so the order with
 * what came before and after stays the same.
 *
 * The nonce is the shell's own and changes with each shell: a line typed with the variable does not match,
 * so nobody can send a command's output past its redirections by naming the variable. The marked command
 * removes the variable before the program sees its environment.
 */
import type { SimpleCommandNode } from "just-bash";
import type { OutputStream } from "../types.js";
import { STREAM_DEVICES, type LiveCommands } from "./statement-stream.js";

type Assignment = SimpleCommandNode["assignments"][number];

export const LIVE_OUTPUT_VARIABLE = "WORKBENCH_LIVE_OUTPUT";

/** The shell's marker: which commands may write while they run, and the nonce that proves a mark is ours. */
export interface LiveOutputMark extends LiveCommands {
  nonce: string;
  /**
   * Makes the next nested command line (a marked npm's script) stream as a top-level one does; only for a
   * caller whose own stdout and stderr both reach the terminal. Returns what undoes it, should that line
   * never start.
   */
  streamNested?: () => () => void;
}

export function newLiveOutputMark(commands: Iterable<string>, streamNested?: () => () => void): LiveOutputMark {
  // getRandomValues rather than randomUUID: the latter is missing outside secure contexts (plain http).
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return {
    nonce,
    streamNested,
    commands: new Set(commands),
    // The prefix assignment the plugin gives a command whose `streams` reach the devices as they are.
    assignment: (streams): Assignment => ({
      type: "Assignment",
      name: LIVE_OUTPUT_VARIABLE,
      value: { type: "Word", parts: [{ type: "Literal", value: `${nonce}:${streams.join(",")}` }] },
      append: false,
      array: null,
    }),
  };
}

type LiveStreams = Record<OutputStream, boolean>;

/** Which of a command's streams it may write live (its marker matches this shell's nonce). */
export function liveStreamsOf(mark: LiveOutputMark | undefined, value: string | undefined): LiveStreams {
  const none = { stdout: false, stderr: false };
  if (!mark || value === undefined) return none;
  const at = value.indexOf(":");
  if (at < 0 || value.slice(0, at) !== mark.nonce) return none;
  const streams = value.slice(at + 1).split(",");
  return { stdout: streams.includes("stdout"), stderr: streams.includes("stderr") };
}

/** The environment a program sees: the command's, without the marker. */
export function withoutMarker<T extends Record<string, string>>(env: T): T {
  if (!(LIVE_OUTPUT_VARIABLE in env)) return env;
  const { [LIVE_OUTPUT_VARIABLE]: _marker, ...rest } = env;
  return rest as T;
}

interface DeviceFs {
  appendFile(path: string, content: Uint8Array): Promise<void>;
}

/**
 * Writes a live stream's chunk to its device (the device hands it on at once, in order); false for a
 * stream that is not live, which the caller keeps and returns as usual.
 */
export function liveWriter(fs: DeviceFs, streams: LiveStreams): (stream: OutputStream, data: Uint8Array) => boolean {
  return (stream, data) => {
    if (!streams[stream]) return false;
    // The device's write is synchronous up to its end; nothing to wait for.
    void fs.appendFile(STREAM_DEVICES[stream], data);
    return true;
  };
}
