import { createEffect, createSignal, For, on, Show } from "solid-js";
import { TEMPLATES } from "../workspace/templates/catalog.js";
import type { Template } from "../workspace/templates/template.js";

const DISMISSED = "workbench-welcome-dismissed";

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Whether the first visit's welcome was dismissed in this browser (on any workspace). */
function welcomeDismissed(store: Pick<Storage, "getItem"> | undefined = storage()): boolean {
  try {
    return store?.getItem(DISMISSED) === "1";
  } catch {
    return false;
  }
}

/** Remembers the dismissal; false when the browser keeps nothing (the welcome then returns after a reload). */
function dismissWelcome(store: Pick<Storage, "setItem"> | undefined = storage()): boolean {
  try {
    store?.setItem(DISMISSED, "1");
    return store !== undefined;
  } catch {
    return false;
  }
}

/**
 * The one place to start: what this page is and what to do first (add a key, or watch the recorded
 * demo without one), with a sample project and a few templates one click away. Shown on the first
 * visit and on any workspace that opens empty; dismissed, it stays away until one of those again or
 * Session ▾ → Getting started.
 */
export function DeskWelcome(props: {
  readOnly: boolean;
  onAddKey: () => void;
  onWatchDemo: () => void;
  onSample: () => Promise<void>;
  /** Writes a template into the workspace and opens its main file. */
  onTemplate: (template: Template) => Promise<void>;
  /** The workspace opened with no files: the start is offered again even if dismissed before. */
  blank: () => boolean;
  /** A key (or local server) was saved in this tab: the first step is done, so the text moves on to the next. */
  keyAdded: () => boolean;
  /** Goes to the chat's prompt box. */
  onAsk: () => void;
  /** Counts the times it was asked for again (the Session menu's "Getting started"); it shows once more each time. */
  reopened: () => number;
}) {
  const [shown, setShown] = createSignal(!welcomeDismissed());
  createEffect(on(props.reopened, () => setShown(true), { defer: true }));
  createEffect(on(props.blank, (blank) => blank && setShown(true), { defer: true }));
  const [adding, setAdding] = createSignal(false);
  const dismiss = () => {
    dismissWelcome();
    setShown(false);
  };
  // One write at a time: a second click while files are being written would only race the first.
  const writing = async (write: () => Promise<void>) => {
    setAdding(true);
    try {
      await write();
    } finally {
      setAdding(false);
    }
  };
  return (
    <Show when={shown()}>
      <section class="desk-welcome" data-testid="desk-welcome" aria-labelledby="desk-welcome-title">
        <div class="desk-welcome-text">
          <h2 id="desk-welcome-title">Welcome to Workbench: a coding agent's desk, all in this tab</h2>
          <Show
            when={props.keyAdded()}
            fallback={
              <p data-testid="desk-welcome-next">
                Files on the left, a terminal and editor in the middle, the agent and its tool calls on the right; nothing is installed. To
                start, add a key for a model provider (it goes only to that provider), or watch a recorded demo without one, or open a
                sample project or a template to try the desk on.
              </p>
            }
          >
            <p data-testid="desk-welcome-next">
              Your model is ready. Ask it for something in the chat on the right, such as "explain this project" or "write a README"; open
              the sample project first if this workspace is empty.
            </p>
          </Show>
        </div>
        <div class="desk-welcome-actions">
          <Show
            when={props.keyAdded()}
            fallback={
              <button type="button" class="button primary" data-testid="desk-welcome-add-key" onClick={() => props.onAddKey()}>
                Add a provider key…
              </button>
            }
          >
            <button type="button" class="button primary" data-testid="desk-welcome-ask" onClick={() => props.onAsk()}>
              Ask the agent
            </button>
          </Show>
          <button
            type="button"
            class="button"
            data-testid="desk-welcome-demo"
            onClick={() => props.onWatchDemo()}
            title="Replays a recorded conversation: no key, no network"
          >
            Watch the recorded demo
          </button>
          <Show when={!props.readOnly}>
            <button
              type="button"
              class="button"
              data-testid="desk-welcome-sample"
              disabled={adding()}
              onClick={() => void writing(props.onSample)}
              title="Adds a small project to this workspace, in sample-project/"
            >
              Open a sample project
            </button>
          </Show>
          <button
            type="button"
            class="dismiss desk-welcome-dismiss"
            data-testid="desk-welcome-dismiss"
            aria-label="Dismiss the welcome"
            title="Dismiss (Session ▾ → Getting started brings it back)"
            onClick={dismiss}
          >
            ×
          </button>
        </div>
        <Show when={!props.readOnly}>
          <div class="desk-welcome-templates" role="group" aria-labelledby="desk-welcome-templates-title">
            <span id="desk-welcome-templates-title">Or start from a template:</span>
            <For each={TEMPLATES}>
              {(template) => (
                <button
                  type="button"
                  class="button"
                  data-testid={`desk-template-${template.id}`}
                  disabled={adding()}
                  title={`${template.summary} Written to ${template.id}/.`}
                  onClick={() => void writing(() => props.onTemplate(template))}
                >
                  {template.title}
                </button>
              )}
            </For>
          </div>
        </Show>
      </section>
    </Show>
  );
}
