/** The program's `console`: Node's formatting (util.format), stdout for log/info/debug, stderr for error/warn/trace. */
import { format, inspect } from "./format.js";

export function createConsole(write: (stream: "stdout" | "stderr", text: string) => void): Console {
  let indent = "";
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const print =
    (stream: "stdout" | "stderr") =>
    (...args: unknown[]) => {
      const text = format(...args);
      write(stream, `${indent ? text.replace(/^/gm, indent) : text}\n`);
    };
  const log = print("stdout");
  const error = print("stderr");
  const console = {
    log,
    info: log,
    debug: log,
    error,
    warn: error,
    trace: (...args: unknown[]) => {
      const stack = new Error().stack?.split("\n").slice(2).join("\n") ?? "";
      error(`Trace: ${format(...args)}\n${stack}`);
    },
    dir: (value: unknown, options?: object) => log(inspect(value, options)),
    dirxml: log,
    table: (value: unknown) => log(value),
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) error(args.length > 0 ? `Assertion failed: ${format(...args)}` : "Assertion failed");
    },
    count: (label = "default") => {
      const count = (counts.get(label) ?? 0) + 1;
      counts.set(label, count);
      log(`${label}: ${count}`);
    },
    countReset: (label = "default") => counts.delete(label),
    group: (...args: unknown[]) => {
      if (args.length > 0) log(...args);
      indent += "  ";
    },
    groupCollapsed: (...args: unknown[]) => console.group(...args),
    groupEnd: () => {
      indent = indent.slice(2);
    },
    time: (label = "default") => timers.set(label, performance.now()),
    timeLog: (label = "default", ...args: unknown[]) => {
      const start = timers.get(label);
      if (start !== undefined) log(`${label}: ${(performance.now() - start).toFixed(3)}ms`, ...args);
    },
    timeEnd: (label = "default") => {
      const start = timers.get(label);
      if (start === undefined) return;
      timers.delete(label);
      log(`${label}: ${(performance.now() - start).toFixed(3)}ms`);
    },
    clear: () => {},
    profile: () => {},
    profileEnd: () => {},
    timeStamp: () => {},
  };
  return console as unknown as Console;
}
