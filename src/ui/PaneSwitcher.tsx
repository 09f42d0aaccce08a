/**
 * On a phone the page shows one pane at a time, full height: the files, the terminal and editor, or the
 * agent (chat and tools). This bar at the bottom switches between them; it is hidden on a wider screen,
 * where the three panes sit side by side (phone.css).
 */
import { For } from "solid-js";
import "./phone.css";

export type PhonePane = "files" | "work" | "agent";

const PANES: ReadonlyArray<{ id: PhonePane; label: string }> = [
  { id: "files", label: "Files" },
  { id: "work", label: "Terminal" },
  { id: "agent", label: "Agent" },
];

export function PaneSwitcher(props: { current: () => PhonePane; onPick: (pane: PhonePane) => void }) {
  return (
    <nav class="pane-switcher" aria-label="Panes" data-testid="pane-switcher">
      <For each={PANES}>
        {(pane) => (
          <button
            type="button"
            class="pane-switch"
            aria-pressed={props.current() === pane.id}
            data-pane={pane.id}
            onClick={() => props.onPick(pane.id)}
          >
            {pane.label}
          </button>
        )}
      </For>
    </nav>
  );
}
