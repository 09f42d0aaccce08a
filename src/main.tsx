import "./ui/polyfills.js";
import { render } from "solid-js/web";
import { browserPlatform, optionsFromLocation, saveRuntimeSetting } from "./workspace/browser-platform.js";
import { Workspace } from "./workspace/workspace.js";
import { App } from "./ui/App.js";
import "./ui/styles.css";
import { initialTheme } from "./ui/theme.js";

const root = document.getElementById("root")!;
// Before anything paints, so a light-theme user never sees the loading screen flash dark.
document.documentElement.dataset.theme = initialTheme();

async function start(): Promise<void> {
  const storage = (() => {
    try {
      return window.localStorage;
    } catch {
      return undefined;
    }
  })();
  const options = optionsFromLocation(window.location, storage);
  const workspace = await Workspace.open(options, browserPlatform);
  root.textContent = "";
  render(
    () => (
      <App
        workspace={workspace}
        onChooseRuntime={(kind) => {
          saveRuntimeSetting(storage, kind);
          const url = new URL(window.location.href);
          url.searchParams.set("runtime", kind);
          window.location.assign(url.toString());
        }}
      />
    ),
    root,
  );
}

// An embed's frame (`?embed=1`, made by embed.js) is its own page: its own workspace in memory, its own layout.
const boot = new URLSearchParams(window.location.search).get("embed") === "1" ? import("./embed-frame.js").then((frame) => frame.startEmbedFrame(root)) : start();
boot.catch((error: unknown) => {
  // Nothing could start: say what and what to try, as text.
  const message = document.createElement("pre");
  message.className = "fatal";
  message.textContent = `The workbench could not start: ${error instanceof Error ? error.message : String(error)}\nTry reloading, or open it with ?memory=1 to skip saved storage.`;
  root.replaceChildren(message);
});
