import "./ui/polyfills.js";
import { render } from "solid-js/web";
import { browserPlatform, optionsFromLocation, saveRuntimeSetting } from "./workspace/browser-platform.js";
import { Workspace } from "./workspace/workspace.js";
import { useLanguageBackend } from "./workspace/language-backend.js";
import { App } from "./ui/App.js";
import "./ui/styles.css";
import { initialTheme } from "./ui/theme.js";

const root = document.getElementById("root")!;
// Before anything paints, so a light-theme user never sees the loading screen flash dark.
document.documentElement.dataset.theme = initialTheme();
// The language service runs in a worker of its own, started when a script or JSON file is first touched.
useLanguageBackend(async (root, files) => (await import("./workspace/language-worker.js")).pageLanguageBackend(root, files));

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

start().catch((error: unknown) => {
  // Nothing could start: say what and what to try, as text.
  const message = document.createElement("pre");
  message.className = "fatal";
  message.textContent = `The workbench could not start: ${error instanceof Error ? error.message : String(error)}\nTry reloading, or open it with ?memory=1 to skip saved storage.`;
  root.replaceChildren(message);
});
