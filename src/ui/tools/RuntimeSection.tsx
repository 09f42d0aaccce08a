import { createSignal, For, Show } from "solid-js";
import { errorMessage } from "../../base/error-message.js";
import type { Runtime, RuntimeKind } from "../../runtime/types.js";
import type { RuntimeStatus } from "../../workspace/workspace.js";

/** What each runtime is made of, for the person choosing between them. */
const MADE_OF: Record<RuntimeKind, string> = {
  embedded:
    "just-bash (a bash written in TypeScript) in a Web Worker, with the files in ZenFS over this browser's IndexedDB. node runs the page's own Node-compatible runtime in a worker, npm installs from the registry into node_modules, python3 is Pyodide in a sandboxed frame.",
  webcontainer:
    "StackBlitz's WebContainer: a real Node.js and npm in the tab. The workspace's files are copied in at boot; changes stay in the container.",
  node: "Node.js on this machine (the command-line workbench), over the real file system.",
};

const WEBCONTAINER_NOTE =
  "WebContainer boots only on a cross-origin isolated page (served with COOP/COEP headers) in a Chromium-based browser, and needs StackBlitz's servers; when it cannot boot, the embedded runtime stays on and the reason is shown here and above the desk.";

/** The commands whose answers say what the runtime really runs: asked, never assumed. */
const VERSION_COMMANDS = ["node --version", "npm --version", "python3 --version"] as const;

interface VersionLine {
  command: string;
  answer: string;
  failed: boolean;
}

/**
 * Settings → Runtime: which runtime serves this workspace, what it is made of, the WebContainer option
 * and why it may not boot, and (on request, since python3 loads Pyodide) the versions it runs.
 */
export function RuntimeSection(props: { runtime: () => Runtime; status?: () => RuntimeStatus }) {
  const [versions, setVersions] = createSignal<VersionLine[]>([]);
  const [checking, setChecking] = createSignal(false);
  const check = async () => {
    setChecking(true);
    setVersions([]);
    try {
      for (const command of VERSION_COMMANDS) {
        const line = await props
          .runtime()
          .exec(command, { timeoutMs: 60_000 })
          .then(
            (result) => ({
              command,
              answer: (result.exitCode === 0 ? result.stdout : result.output).trim(),
              failed: result.exitCode !== 0,
            }),
            (error: unknown) => ({ command, answer: errorMessage(error), failed: true }),
          );
        setVersions((all) => [...all, line]);
      }
    } finally {
      setChecking(false);
    }
  };
  return (
    <section class="settings-section" aria-labelledby="settings-runtime" data-testid="settings-runtime">
      <h3 id="settings-runtime">Runtime</h3>
      <p class="tools-note">
        In use: <strong data-testid="settings-runtime-kind">{props.runtime().kind}</strong>
        <Show when={props.status?.()}>{(status) => <span data-testid="settings-runtime-detail"> ({status().detail})</span>}</Show>
      </p>
      <p class="tools-note" data-testid="settings-runtime-made-of">
        {MADE_OF[props.runtime().kind]}
      </p>
      <p class="tools-note" data-testid="settings-runtime-webcontainer">
        {WEBCONTAINER_NOTE} Choose it with the Runtime menu in the header.
      </p>
      <button type="button" class="button" data-testid="settings-runtime-check" disabled={checking()} onClick={() => void check()}>
        {checking() ? "Checking…" : "Check node, npm and python3 versions"}
      </button>
      <Show when={versions().length > 0}>
        <dl class="runtime-versions" data-testid="settings-runtime-versions">
          <For each={versions()}>
            {(line) => (
              <>
                <dt>
                  <code>{line.command}</code>
                </dt>
                <dd classList={{ "error-text": line.failed }} data-testid="settings-runtime-version">
                  {line.answer || "(no output)"}
                </dd>
              </>
            )}
          </For>
        </dl>
      </Show>
    </section>
  );
}
