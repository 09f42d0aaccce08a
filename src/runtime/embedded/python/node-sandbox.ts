import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { FromSandbox, ToSandbox } from "./protocol.js";
import { START_TIMEOUT_MS, type PythonSandbox, type PythonSandboxFactory } from "./sandbox.js";

const hostPath = fileURLToPath(new URL("./sandbox-host.mjs", import.meta.url));
const driverPath = fileURLToPath(new URL("./driver.py", import.meta.url));

function pyodideDir(): string {
  return `${dirname(createRequire(import.meta.url).resolve("pyodide"))}/`;
}

/** node 20 and 22 spell the permission model's switch `--experimental-permission`; later ones `--permission`. */
function permissionFlag(): string {
  const major = Number(process.versions.node.split(".")[0]);
  return major >= 23 ? "--permission" : "--experimental-permission";
}

/**
 * python3's sandbox in the CLI: a child process under node's permission model, allowed to read only
 * Pyodide's folder and its own script. It may not write a file, start a process or a worker, or load a
 * native addon, so `import js; js.process...` reaches nothing of the machine; its environment holds only
 * where Pyodide is (no keys of ours). The workspace reaches it as a copy, over the IPC channel.
 */
export const nodePythonSandboxFactory: PythonSandboxFactory = async () => {
  const dir = pyodideDir();
  const child = fork(hostPath, [], {
    execArgv: [permissionFlag(), `--allow-fs-read=${dir}`, `--allow-fs-read=${hostPath}`],
    env: { WB_PYODIDE_DIR: dir },
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderrTail = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString("utf8")).slice(-2000);
  });
  let exitHandler: (reason: string) => void = () => {};
  let killed = false;
  child.on("exit", (code, signal) => {
    if (killed) return;
    const detail = stderrTail
      .split("\n")
      .filter((line) => line && !line.includes("ExperimentalWarning") && !line.includes("--trace-warnings"));
    exitHandler(`the python3 sandbox ended (${signal ?? `exit code ${code}`})${detail.length ? `: ${detail.slice(-3).join(" ")}` : ""}`);
  });
  const listen = (handler: (message: FromSandbox) => void) => {
    const listener = (message: unknown) => handler(message as FromSandbox);
    child.on("message", listener);
    return () => void child.off("message", listener);
  };
  const kill = () => {
    killed = true;
    child.kill("SIGKILL");
  };
  const version = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      kill();
      reject(new Error(`python3 did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    exitHandler = (reason) => {
      clearTimeout(timer);
      stop();
      reject(new Error(reason));
    };
    const stop = listen((message) => {
      if (message.kind === "started") {
        child.send({ kind: "init", driver: readFileSync(driverPath, "utf8") } satisfies ToSandbox);
      } else if (message.kind === "ready") {
        clearTimeout(timer);
        stop();
        resolve(message.version);
      } else if (message.kind === "failed") {
        clearTimeout(timer);
        stop();
        kill();
        reject(new Error(`python3 could not start: ${message.message}`));
      }
    });
  });
  exitHandler = () => {};
  // Idle between commands, the sandbox must not keep the CLI alive.
  child.unref();
  child.channel?.unref();
  const sandbox: PythonSandbox = {
    version,
    // The shell worker waiting on the run keeps the CLI alive meanwhile (its setBusy).
    post: (message) => child.send(message),
    listen,
    kill,
    onExit: (handler) => (exitHandler = handler),
  };
  return sandbox;
};
