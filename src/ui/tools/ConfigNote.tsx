/**
 * Says that the workspace config was edited (in the editor, the terminal, by a tool) and whether the edit
 * is in force: it applies at the next call, or why it cannot. Shown over both the chat and the tools.
 */
import { Show } from "solid-js";

export function ConfigNote(props: { note: () => { text: string; error?: boolean } | undefined; onDismiss: () => void }) {
  return (
    <Show when={props.note()}>
      {(note) => (
        <p
          class={`banner config-note ${note().error ? "error" : "info"}`}
          role={note().error ? "alert" : "status"}
          data-testid="config-changed-note"
          // The size of the pane's own notes, not of the page's banners.
          style={{ "font-size": "0.85rem", padding: "0.35rem 0.6rem" }}
        >
          {note().text}
          <button type="button" class="dismiss" aria-label="Dismiss" onClick={() => props.onDismiss()}>
            ×
          </button>
        </p>
      )}
    </Show>
  );
}
