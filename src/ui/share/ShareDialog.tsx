import { createResource, createSignal, Match, onMount, Show, Switch } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import type { SessionRecord } from "../../session/record/session-record.js";
import { saveBytes } from "../download.js";
import { keepFocusInside } from "../tools/dialog-focus.js";
import type { ShareActions } from "./share-actions.js";
import { errorMessage } from "../../base/error-message.js";

/**
 * Share: the link to this workspace's files and the current session, with its length and a warning where
 * chat apps cut links; past the limit, or on request, the same share as a `.workbench.json` download. Also
 * the way in for a share file (picked here, or dropped anywhere on the page).
 */
export function ShareDialog(props: {
  actions: ShareActions;
  runtime: Runtime;
  name: string;
  session?: SessionRecord;
  theme: "light" | "dark";
  onClose: () => void;
}) {
  let heading: HTMLHeadingElement | undefined;
  onMount(() => heading?.focus());
  const [outcome] = createResource(() =>
    props.actions.make(props.runtime, { name: props.name, session: props.session, theme: props.theme }),
  );
  const [copied, setCopied] = createSignal(false);
  const [openError, setOpenError] = createSignal<string>();
  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard permission: the link is selected in its box for Ctrl+C.
      document.querySelector<HTMLTextAreaElement>("[data-testid=share-link]")?.select();
    }
  };
  const openPicked = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    setOpenError(undefined);
    try {
      await props.actions.openFile(file);
    } catch (error) {
      setOpenError(errorMessage(error));
    }
  };
  return (
    <div class="palette-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        class="palette share-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="share-title"
        data-testid="share-dialog"
        onKeyDown={(e) => (e.key === "Escape" ? props.onClose() : keepFocusInside(e))}
      >
        <header class="settings-head">
          <h2 id="share-title" tabindex="-1" ref={heading}>
            Share this workspace
          </h2>
          <button type="button" class="button" onClick={() => props.onClose()} aria-label="Close (Escape)">
            Close <kbd>Esc</kbd>
          </button>
        </header>
        <p class="tools-note">
          The link carries the files, opencode.json and this session. It never carries your keys, your trust decisions or saved approvals.
        </p>
        <Switch>
          <Match when={outcome.loading}>
            <p class="tools-note" role="status">
              Making the link…
            </p>
          </Match>
          <Match when={outcome.error}>
            <p class="banner error" role="alert" data-testid="share-error">
              This workspace cannot be shared: {outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}
            </p>
          </Match>
          <Match when={outcome()}>
            {(made) => (
              <>
                <Show when={(made().leftOut ?? []).length > 0}>
                  <p class="tools-note" data-testid="share-left-out">
                    Not shared, as they may hold keys: {made().leftOut!.join(", ")}. Put what a reader needs in .env.example.
                  </p>
                </Show>
                <Show
                  when={made().link}
                  fallback={
                    <p class="banner warn" role="alert" data-testid="share-too-long">
                      The link would be {made().length.toLocaleString("en")} characters, too long to travel as a link. Download the share as
                      a file instead; it opens by dropping it on the workbench, by “Open a share file”, or from a link ending in
                      #from=&lt;its address&gt;.
                    </p>
                  }
                >
                  {(link) => (
                    <>
                      <textarea
                        class="share-link"
                        readOnly
                        rows={3}
                        data-testid="share-link"
                        aria-label="Share link"
                        onFocus={(e) => e.currentTarget.select()}
                      >
                        {link()}
                      </textarea>
                      <p class="tools-note" data-testid="share-length">
                        {made().length.toLocaleString("en")} characters.
                        <Show when={made().length > made().warnAt}>
                          {" "}
                          <strong data-testid="share-warning">
                            Past about {made().warnAt.toLocaleString("en")} characters some chat apps and mail cut links: send the file if
                            it arrives broken.
                          </strong>
                        </Show>
                      </p>
                      <button type="button" class="button" data-testid="share-copy" onClick={() => void copy(link())}>
                        {copied() ? "Copied" : "Copy link"}
                      </button>{" "}
                    </>
                  )}
                </Show>
                <button
                  type="button"
                  class="button"
                  data-testid="share-download"
                  onClick={() => saveBytes(made().file, made().fileName, "application/json")}
                >
                  Download .workbench.json
                </button>
              </>
            )}
          </Match>
        </Switch>
        <hr />
        <label class="button">
          Open a share file…
          <input
            type="file"
            accept=".json,application/json"
            hidden
            data-testid="share-open-file"
            onChange={(e) => void openPicked(e.currentTarget)}
          />
        </label>
        <Show when={openError()}>
          <p class="banner error" role="alert" data-testid="share-open-error">
            {openError()}
          </p>
        </Show>
      </div>
    </div>
  );
}
