import "./ui/polyfills.js";
import { render } from "solid-js/web";
import { browserPlatform, optionsFromLocation, saveRuntimeSetting } from "./workspace/browser-platform.js";
import { Workspace } from "./workspace/workspace.js";
import { useLanguageBackend } from "./workspace/language-backend.js";
import { App } from "./ui/App.js";
import "./ui/styles.css";
import { initialTheme } from "./ui/theme.js";
import type { ShareActions } from "./ui/share/share-actions.js";
import { errorMessage } from "./base/error-message.js";

const root = document.getElementById("root")!;
// Before anything paints, so a light-theme user never sees the loading screen flash dark.
document.documentElement.dataset.theme = initialTheme();
// The language service runs in a worker of its own, started when a script or JSON file is first touched.
useLanguageBackend(async (root, files) => (await import("./workspace/language-worker.js")).pageLanguageBackend(root, files));

const here = () => ({ origin: window.location.origin, pathname: window.location.pathname });

const shareActions: ShareActions = {
  async make(runtime, options) {
    const { makeShare } = await import("./embed/share/browser.js");
    return makeShare(runtime, { ...options, base: `${window.location.origin}${window.location.pathname}` });
  },
  async openFile(file) {
    const { openShareFile } = await import("./embed/share/browser.js");
    window.location.assign(await openShareFile(file, here()));
  },
};

/** A refused share: what is wrong, and the way to the workbench without it. Nothing was written. */
function showShareError(message: string): void {
  const box = document.createElement("div");
  box.className = "share-refused";
  box.setAttribute("role", "alert");
  box.dataset.testid = "share-refused";
  const text = document.createElement("p");
  text.textContent = message;
  const link = document.createElement("a");
  link.href = window.location.pathname;
  link.textContent = "Open the workbench without it";
  box.append(text, link);
  root.replaceChildren(box);
}

/**
 * `#share=...` or `#from=<url>`: the share opens in a new workspace (written first, then the page goes
 * there). Returns true when the page is handled here (moving on, or showing why the share was refused).
 */
async function openShareFromAddress(): Promise<boolean> {
  if (!/^#(share|from)=/.test(window.location.hash)) return false;
  root.textContent = "Opening the shared workspace…";
  const { shareSourceOf, readShareFromAddress, openShareInNewWorkspace } = await import("./embed/share/browser.js");
  const source = shareSourceOf(window.location.hash);
  if (!source) return false;
  const result = await readShareFromAddress(source, window.location.href);
  if (!result.ok) {
    showShareError(result.error);
    return true;
  }
  try {
    const files = Object.keys(result.state.files).length;
    const next = await openShareInNewWorkspace(
      result.state,
      here(),
      (written) => (root.textContent = `Opening the shared workspace… ${written} of ${files} files`),
    );
    window.location.replace(next);
  } catch (error) {
    showShareError(`The shared workspace could not be opened: ${errorMessage(error)}`);
  }
  return true;
}

async function start(): Promise<void> {
  if (await openShareFromAddress()) return;
  // A link pasted into a tab already on the workbench differs only in its hash, which does not load the
  // page again: open it the same way a fresh load would.
  window.addEventListener("hashchange", () => {
    if (/^#(share|from)=/.test(window.location.hash)) window.location.reload();
  });
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
        share={shareActions}
        shared={new URLSearchParams(window.location.search).get("shared") === "1"}
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
const boot =
  new URLSearchParams(window.location.search).get("embed") === "1"
    ? import("./embed-frame.js").then((frame) => frame.startEmbedFrame(root))
    : start();
boot.catch((error: unknown) => {
  // Nothing could start: say what and what to try, as text.
  const message = document.createElement("pre");
  message.className = "fatal";
  message.textContent = `The workbench could not start: ${errorMessage(error)}\nTry reloading, or open it with ?memory=1 to skip saved storage.`;
  root.replaceChildren(message);
});
