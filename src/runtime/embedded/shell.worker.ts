// Browser entry of the shell worker. The Buffer polyfill comes first: isomorphic-git (git) needs it.
import "./buffer-global.js";
import { startWhenConnected } from "./browser-worker-entry.js";
import { runShell } from "./shell-core.js";
import { stubbedCommands } from "./zlib-stub.js";

startWhenConnected((control, fsEndpoint) => runShell(control, fsEndpoint, { unavailable: stubbedCommands }));
