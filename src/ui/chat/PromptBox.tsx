/**
 * Where the person writes: Enter sends, Shift+Enter breaks the line, Escape (or Stop) stops a busy
 * turn, Tab switches the primary agent. `@` followed by a path lists the workspace's files; picking one
 * attaches it. A pasted image is attached when the model takes images, and refused with a notice when not.
 */
import { createEffect, createSignal, For, on, Show } from "solid-js";
import type { Attachment, SendInput } from "../../session/chat/chat-view.js";
import { fileURLOfPath, mentionAt, mimeOfPath } from "./chat-text.js";
import { errorMessage } from "../../base/error-message.js";

export interface PromptBoxProps {
  busy: () => boolean;
  /** Why nothing can be sent now (no model ready); the box is disabled while set. */
  disabledReason: () => string | undefined;
  /** The current model takes images. */
  acceptsImages: () => boolean;
  modelName: () => string | undefined;
  agent: () => string;
  /** Workspace paths that start with `prefix` (a folder ends with "/"). */
  listFiles: (prefix: string) => Promise<string[]>;
  onSend: (input: SendInput) => void | Promise<void>;
  onStop: () => void;
  onCycleAgent: () => void;
  /** Text put back into the box from outside (an undone message); each new value replaces what is typed. */
  draft?: () => { text: string } | undefined;
}

const MAX_SUGGESTIONS = 50;

function readAsDataURL(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("the pasted file could not be read"));
    reader.readAsDataURL(file);
  });
}

export function PromptBox(props: PromptBoxProps) {
  let box: HTMLTextAreaElement | undefined;
  const [text, setText] = createSignal("");
  createEffect(
    on(
      () => props.draft?.(),
      (draft) => {
        if (!draft) return;
        setText(draft.text);
        box?.focus();
      },
    ),
  );
  const [attachments, setAttachments] = createSignal<Attachment[]>([]);
  const [suggestions, setSuggestions] = createSignal<string[]>([]);
  const [active, setActive] = createSignal(0);
  const [notice, setNotice] = createSignal<string>();
  let lookup = 0;

  const open = () => suggestions().length > 0;
  const closeList = () => {
    lookup++;
    setSuggestions([]);
  };
  const complete = () => {
    if (!box) return;
    const mention = mentionAt(box.value, box.selectionStart ?? box.value.length);
    if (!mention) return closeList();
    const asked = ++lookup;
    props.listFiles(mention.prefix).then(
      (paths) => {
        if (asked !== lookup) return;
        setSuggestions(paths.slice(0, MAX_SUGGESTIONS));
        setActive(0);
      },
      (error: unknown) => {
        if (asked !== lookup) return;
        setSuggestions([]);
        setNotice(`Could not list the workspace's files: ${errorMessage(error)}`);
      },
    );
  };
  const attach = (attachment: Attachment) =>
    setAttachments((all) => (all.some((a) => a.url === attachment.url) ? all : [...all, attachment]));
  const pick = (path: string) => {
    if (!box) return;
    const caret = box.selectionStart ?? box.value.length;
    const mention = mentionAt(box.value, caret);
    if (!mention) return closeList();
    const folder = path.endsWith("/");
    const inserted = `@${path}${folder ? "" : " "}`;
    const next = box.value.slice(0, mention.start) + inserted + box.value.slice(caret);
    setText(next);
    box.value = next;
    const at = mention.start + inserted.length;
    box.setSelectionRange(at, at);
    if (folder) return complete();
    closeList();
    attach({ mime: mimeOfPath(path), filename: path, url: fileURLOfPath(path) });
  };

  const canSend = () => !props.busy() && !props.disabledReason() && (text().trim() !== "" || attachments().length > 0);
  const send = () => {
    if (!canSend()) return;
    const input: SendInput = { text: text().trim(), attachments: attachments().length > 0 ? attachments() : undefined };
    const kept = { text: text(), attachments: attachments() };
    setText("");
    setAttachments([]);
    setNotice(undefined);
    if (box) box.value = "";
    Promise.resolve(props.onSend(input)).catch((error: unknown) => {
      // Nothing typed is lost to a failed send.
      setText(kept.text);
      setAttachments(kept.attachments);
      if (box) box.value = kept.text;
      setNotice(`Not sent: ${errorMessage(error)}`);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    if (open()) {
      const count = suggestions().length;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setActive((index) => (index + (event.key === "ArrowDown" ? 1 : count - 1)) % count);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(suggestions()[active()]!);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        closeList();
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      send();
    } else if (event.key === "Escape" && props.busy()) {
      event.preventDefault();
      props.onStop();
    } else if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
      // Shift+Tab still leaves the box, so the keyboard is never trapped in it.
      event.preventDefault();
      props.onCycleAgent();
    }
  };

  const onPaste = (event: ClipboardEvent) => {
    const files = [...(event.clipboardData?.items ?? [])]
      .filter((item) => item.kind === "file" && item.type.startsWith("image/"))
      .map((item) => item.getAsFile())
      .filter((file): file is File => file !== null);
    if (files.length === 0) return;
    event.preventDefault();
    if (!props.acceptsImages()) {
      setNotice(`${props.modelName() ?? "This model"} does not take images: pick a model that does (see the model list) to paste one.`);
      return;
    }
    for (const file of files) {
      readAsDataURL(file).then(
        (url) => attach({ mime: file.type, filename: file.name || `pasted-image.${file.type.split("/")[1] ?? "png"}`, url }),
        (error: unknown) => setNotice(`The pasted image could not be read: ${errorMessage(error)}`),
      );
    }
  };

  const listID = "chat-file-suggestions";
  return (
    <div class="chat-prompt" data-testid="prompt-box">
      <Show when={attachments().length > 0}>
        <ul class="chat-chips" aria-label="Attached to the next message" data-testid="prompt-attachments">
          <For each={attachments()}>
            {(attachment) => (
              <li class="chat-chip" data-testid="prompt-attachment">
                <code>{attachment.filename}</code>
                <button
                  type="button"
                  class="chat-chip-remove"
                  aria-label={`Remove ${attachment.filename}`}
                  onClick={() => setAttachments((all) => all.filter((a) => a !== attachment))}
                >
                  ×
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <div class="chat-prompt-row">
        <textarea
          ref={box}
          class="chat-input"
          rows={3}
          data-testid="prompt-input"
          aria-label={`Message to the ${props.agent()} agent`}
          title="Enter sends, Shift+Enter adds a line, Escape stops, Tab switches the agent, @ attaches a file"
          aria-keyshortcuts="Enter Shift+Enter Escape Tab"
          aria-describedby="chat-prompt-reason"
          aria-autocomplete="list"
          aria-controls={open() ? listID : undefined}
          aria-activedescendant={open() ? `${listID}-${active()}` : undefined}
          placeholder={props.disabledReason() ? "" : "Ask for a change, or @ to attach a file"}
          disabled={props.disabledReason() !== undefined}
          value={text()}
          onInput={(event) => {
            setText(event.currentTarget.value);
            complete();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => setTimeout(closeList, 150)}
        />
        <Show
          when={props.busy()}
          fallback={
            <button type="button" class="button primary" onClick={send} disabled={!canSend()} data-testid="send" aria-keyshortcuts="Enter">
              Send
            </button>
          }
        >
          <button type="button" class="button danger" onClick={() => props.onStop()} data-testid="stop" aria-keyshortcuts="Escape">
            Stop
          </button>
        </Show>
      </div>
      <Show when={open()}>
        <ul class="chat-suggestions" role="listbox" id={listID} aria-label="Workspace files" data-testid="file-suggestions">
          <For each={suggestions()}>
            {(path, index) => (
              <li
                id={`${listID}-${index()}`}
                role="option"
                aria-selected={index() === active()}
                classList={{ active: index() === active() }}
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(path);
                }}
              >
                {path}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <p
        id="chat-prompt-reason"
        class="chat-prompt-note"
        role={props.disabledReason() || notice() ? "status" : undefined}
        data-testid="prompt-note"
      >
        {props.disabledReason() ?? notice() ?? ""}
      </p>
    </div>
  );
}
