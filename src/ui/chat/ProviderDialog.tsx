/**
 * Adding, changing or removing a provider's key, and pointing an OpenAI-compatible provider at a local
 * server. It only collects what the person types and hands it to `onSave`; where a key is kept (memory,
 * or IndexedDB when "remember" is ticked) is the caller's business.
 */
import { createMemo, createSignal, For, onMount, Show } from "solid-js";
import { keepFocusInside } from "../tools/dialog-focus.js";
import type { ProviderKeyStatus } from "../../session/chat/chat-view.js";
import { errorMessage } from "../../base/error-message.js";

export type { ProviderKeyStatus };

export interface ProviderKeyInput {
  providerID: string;
  key: string;
  remember: boolean;
  baseURL?: string;
  /** For an OpenAI-compatible server: the model ids it runs, comma-separated. */
  models?: string;
}

export interface ProviderDialogProps {
  providers: readonly ProviderKeyStatus[];
  onSave: (input: ProviderKeyInput) => void | Promise<void>;
  onRemove: (providerID: string) => void | Promise<void>;
  onClose: () => void;
  /** The provider selected when the dialog opens. */
  initial?: string;
}

/** The choice for a new OpenAI-compatible provider (Ollama, LM Studio, llama.cpp, vLLM). */
export const NEW_COMPATIBLE = "+compatible";

const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]*$/;

function validBaseURL(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? undefined : "The base URL must start with http:// or https://.";
  } catch {
    return "The base URL is not a URL: write it like http://localhost:11434/v1.";
  }
}

export function ProviderDialog(props: ProviderDialogProps) {
  const [selected, setSelected] = createSignal(
    props.providers.find((entry) => entry.id === props.initial)?.id ??
      props.providers.find((entry) => !entry.hasKey)?.id ??
      props.providers[0]?.id ??
      NEW_COMPATIBLE,
  );
  const provider = createMemo(() => props.providers.find((entry) => entry.id === selected()));
  const compatible = () => selected() === NEW_COMPATIBLE || provider()?.compatible === true;
  const [key, setKey] = createSignal("");
  const [newID, setNewID] = createSignal("local");
  const [baseURL, setBaseURL] = createSignal(provider()?.baseURL ?? "");
  const [models, setModels] = createSignal(provider()?.models ?? "");
  const [remember, setRemember] = createSignal(false);
  const [problem, setProblem] = createSignal<string>();
  const [saving, setSaving] = createSignal(false);

  const choose = (id: string) => {
    setSelected(id);
    setKey("");
    setProblem(undefined);
    setBaseURL(props.providers.find((entry) => entry.id === id)?.baseURL ?? (id === NEW_COMPATIBLE ? "http://localhost:11434/v1" : ""));
    setModels(props.providers.find((entry) => entry.id === id)?.models ?? "");
  };
  // A local server often needs no key: only once one is typed is there a key to ask about.
  const keyAsked = () => !compatible() || key().trim() !== "";
  const destination = () =>
    compatible() ? baseURL() || "its base URL" : (provider()?.baseURL ?? `${provider()?.name ?? selected()}'s own API`);

  const save = async (event: Event) => {
    event.preventDefault();
    const providerID = selected() === NEW_COMPATIBLE ? newID().trim() : selected();
    let error: string | undefined;
    if (selected() === NEW_COMPATIBLE && !PROVIDER_ID.test(providerID))
      error = "Name the provider with lowercase letters, digits, - or _ (it becomes the provider id in model names: local/llama3).";
    else if (compatible())
      error =
        validBaseURL(baseURL().trim()) ??
        (models().trim() === ""
          ? "Name the model (or models, comma-separated) the server runs, e.g. llama3.2 or qwen2.5-coder."
          : undefined);
    else if (key().trim() === "") error = `Paste the ${provider()?.name ?? providerID} API key first.`;
    if (error) return setProblem(error);
    setSaving(true);
    setProblem(undefined);
    try {
      await props.onSave({
        providerID,
        key: key().trim(),
        remember: remember(),
        ...(compatible() ? { baseURL: baseURL().trim(), models: models().trim() } : {}),
      });
      props.onClose();
    } catch (failure) {
      setProblem(`Not saved: ${errorMessage(failure)}`);
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    try {
      await props.onRemove(selected());
      setKey("");
    } catch (failure) {
      setProblem(`Not removed: ${errorMessage(failure)}`);
    }
  };

  let form!: HTMLFormElement;
  // A modal dialog takes the focus, whatever opened it (the Keys button, or the page's welcome).
  onMount(() => requestAnimationFrame(() => form.querySelector<HTMLElement>("select, input")?.focus()));

  return (
    <div class="palette-backdrop" onClick={(event) => event.target === event.currentTarget && props.onClose()}>
      <form
        ref={form}
        class="palette chat-keys"
        role="dialog"
        aria-modal="true"
        aria-labelledby="provider-dialog-title"
        data-testid="provider-dialog"
        onSubmit={save}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            props.onClose();
          } else keepFocusInside(event);
        }}
      >
        <h2 id="provider-dialog-title">Provider keys</h2>
        <label class="chat-field">
          <span>Provider</span>
          <select data-testid="provider-select" value={selected()} onChange={(event) => choose(event.currentTarget.value)}>
            <For each={props.providers}>
              {(entry) => (
                <option value={entry.id}>
                  {entry.name}
                  {entry.hasKey ? (entry.remembered ? " (key set, remembered)" : " (key set)") : ""}
                </option>
              )}
            </For>
            <option value={NEW_COMPATIBLE}>Local or other OpenAI-compatible server…</option>
          </select>
        </label>
        <Show when={selected() === NEW_COMPATIBLE}>
          <label class="chat-field">
            <span>Provider id</span>
            <input
              type="text"
              data-testid="provider-id"
              value={newID()}
              onInput={(event) => setNewID(event.currentTarget.value)}
              spellcheck={false}
            />
          </label>
        </Show>
        <Show when={compatible()}>
          <label class="chat-field">
            <span>Base URL</span>
            <input
              type="url"
              data-testid="provider-base-url"
              value={baseURL()}
              placeholder="http://localhost:11434/v1"
              onInput={(event) => setBaseURL(event.currentTarget.value)}
              spellcheck={false}
            />
          </label>
          <label class="chat-field">
            <span>Models (comma-separated)</span>
            <input
              type="text"
              data-testid="provider-models"
              value={models()}
              placeholder="llama3.2, qwen2.5-coder"
              onInput={(event) => setModels(event.currentTarget.value)}
              spellcheck={false}
            />
          </label>
          <p class="tools-note">
            A local server must allow this page's origin ({typeof location === "undefined" ? "this page" : location.origin}): for Ollama set
            OLLAMA_ORIGINS to it and restart; in LM Studio turn on CORS in the server settings.
          </p>
        </Show>
        <label class="chat-field">
          <span>{compatible() ? "API key (optional for local servers)" : "API key"}</span>
          <input
            type="password"
            data-testid="provider-key"
            autocomplete="off"
            spellcheck={false}
            value={key()}
            placeholder={provider()?.hasKey ? "A key is set: paste a new one to replace it" : ""}
            onInput={(event) => setKey(event.currentTarget.value)}
          />
        </label>
        {/* Only a key is a secret, so only the key is asked about; a server's address is kept anyway. */}
        <Show when={keyAsked()}>
          <label class="chat-check">
            <input
              type="checkbox"
              data-testid="provider-remember"
              checked={remember()}
              onChange={(event) => setRemember(event.currentTarget.checked)}
            />
            Remember the key on this device
          </label>
        </Show>
        <p class="tools-note" data-testid="provider-key-note">
          <Show when={compatible()}>The server's address and models are kept in this browser. </Show>
          <Show when={keyAsked()}>
            The key is sent only to {destination()}, never into the workspace, an export or a share link.{" "}
            {remember()
              ? "It is kept in this browser's storage until you remove it."
              : "Unticked, it is kept in this tab's memory only and forgotten on reload."}
          </Show>
        </p>
        <Show when={problem()}>
          <p class="settings-error" role="alert" data-testid="provider-problem">
            {problem()}
          </p>
        </Show>
        <div class="chat-dialog-actions">
          <Show when={provider()?.hasKey}>
            <button type="button" class="button danger" data-testid="provider-remove" onClick={() => void remove()}>
              Remove key
            </button>
          </Show>
          <span class="spacer" />
          <button type="button" class="button" onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" class="button primary" data-testid="provider-save" disabled={saving()}>
            Save
          </button>
        </div>
      </form>
    </div>
  );
}
