// Browser entry of the shell worker. The Buffer polyfill comes first: isomorphic-git (git) needs it.
import "./buffer-global.js";
import { startWhenConnected } from "./browser-worker-entry.js";
import { runShell } from "./shell-core.js";
import { stubbedCommands } from "./zlib-stub.js";
import { requestSandboxes } from "./sandbox/remote.js";

// Programs (node) run in sandboxes the page makes: a worker cannot make the frame they need.
startWhenConnected((control, fsEndpoint) =>
  runShell(control, fsEndpoint, { unavailable: stubbedCommands, openSandbox: requestSandboxes(control) }),
);
