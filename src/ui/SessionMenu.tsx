/**
 * The current session's file actions: replay a recorded script through the chat, save the session as
 * a script, export it, import one. Files come in through hidden file inputs; what happens to them is
 * the caller's.
 */
import { createSignal, onCleanup, Show } from "solid-js";

export function SessionMenu(props: {
  disabled: () => boolean;
  /** Scripts play through the chat, which loads after the first paint. */
  chatReady: () => boolean;
  onReplayScript: (file: File) => void;
  onSaveScript: () => void;
  onExport: () => void;
  onImport: (file: File) => void;
  /** Shows the welcome again (the demo, the sample project, a key); absent where the page has none. */
  onGettingStarted?: () => void;
}) {
  const [open, setOpen] = createSignal(false);
  let root: HTMLDivElement | undefined;
  let toggle: HTMLButtonElement | undefined;
  let scriptInput: HTMLInputElement | undefined;
  let sessionInput: HTMLInputElement | undefined;

  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) toggle?.focus();
  };
  const outside = (event: MouseEvent) => {
    if (open() && root && !root.contains(event.target as Node)) close(false);
  };
  document.addEventListener("mousedown", outside);
  onCleanup(() => document.removeEventListener("mousedown", outside));

  const pick = (use: (file: File) => void) => (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    // Cleared, so choosing the same file again still counts as a choice.
    input.value = "";
    if (file) use(file);
  };
  const act = (action: () => void) => () => {
    close();
    action();
  };

  return (
    <div
      class="session-menu"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === "Escape" && open()) {
          event.preventDefault();
          close();
        }
      }}
    >
      <button
        type="button"
        class="button"
        ref={toggle}
        aria-haspopup="menu"
        aria-expanded={open()}
        data-testid="session-menu"
        disabled={props.disabled()}
        onClick={() => {
          setOpen(!open());
          if (open()) queueMicrotask(() => root?.querySelector<HTMLElement>("[role=menuitem]:not([disabled])")?.focus());
        }}
      >
        Session ▾
      </button>
      <Show when={open()}>
        <div
          class="session-menu-list"
          role="menu"
          aria-label="Session actions"
          onKeyDown={(event) => {
            if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
            event.preventDefault();
            const items = [...(root?.querySelectorAll<HTMLElement>("[role=menuitem]:not([disabled])") ?? [])];
            const at = items.indexOf(document.activeElement as HTMLElement);
            items[(at + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length]?.focus();
          }}
        >
          <Show when={props.onGettingStarted}>
            {(show) => (
              <button type="button" role="menuitem" data-testid="menu-getting-started" onClick={act(show())}>
                Getting started: demo, sample, keys
              </button>
            )}
          </Show>
          <button
            type="button"
            role="menuitem"
            disabled={!props.chatReady()}
            data-testid="menu-replay-script"
            onClick={act(() => scriptInput?.click())}
          >
            Replay a script…
          </button>
          <button type="button" role="menuitem" data-testid="menu-save-script" onClick={act(props.onSaveScript)}>
            Save as script
          </button>
          <button type="button" role="menuitem" data-testid="menu-export-session" onClick={act(props.onExport)}>
            Export session
          </button>
          <button type="button" role="menuitem" data-testid="menu-import-session" onClick={act(() => sessionInput?.click())}>
            Import session…
          </button>
        </div>
      </Show>
      <input
        ref={scriptInput}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="script-file"
        onChange={pick(props.onReplayScript)}
      />
      <input
        ref={sessionInput}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="session-file"
        onChange={pick(props.onImport)}
      />
    </div>
  );
}
