import { createSignal, Show } from "solid-js";
import type { PermissionReply } from "../../page/page-tools.js";
import type { PermissionRequest } from "../../tools/permission/types.js";
import { provisionalTitle } from "./call-title.js";
import { DiffView } from "./DiffView.js";
import { cardSelector, jumpTo } from "./jump.js";

/** The call that asks: its tool, title and input are shown with the question. */
export interface AskingCall {
  id: string;
  tool: string;
  title: string;
  input: Record<string, unknown>;
}

/** An input as short "key: value" lines (values on one line each, long ones cut): enough to tell calls apart. */
function inputLines(input: Record<string, unknown>): string {
  return Object.entries(input)
    .map(([key, value]) => {
      const shown = typeof value === "string" ? value : JSON.stringify(value);
      const line = (shown ?? "").replace(/\n/g, "⏎ ");
      return `${key}: ${line.length > 400 ? `${line.slice(0, 399)}…` : line}`;
    })
    .join("\n");
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** One pending permission request: what is asked, what is at stake, and the three answers. */
export function PermissionPrompt(props: {
  request: PermissionRequest;
  input?: Record<string, unknown>;
  /** The call that asks, when it is known (a prompt from the palette or the model always has one). */
  call?: AskingCall;
  position: number;
  total: number;
  onReply: (reply: PermissionReply, message?: string, saveToConfig?: boolean) => void;
}) {
  const [message, setMessage] = createSignal("");
  const [saveToConfig, setSaveToConfig] = createSignal(false);
  const meta = () => props.request.metadata ?? {};
  const input = () => props.call?.input ?? props.input;
  const title = () => (props.call ? props.call.title || provisionalTitle(props.call.tool, props.call.input) : undefined);
  const command = () => (props.request.permission === "bash" ? (text(input()?.command) ?? props.request.patterns.join("\n")) : undefined);
  const folder = () =>
    props.request.permission === "external_directory"
      ? (text(meta().parentDir) ?? text(meta().filepath) ?? props.request.patterns.join(", "))
      : undefined;
  return (
    <section
      class="permission-prompt"
      role="alertdialog"
      aria-label={`Permission ${props.request.permission}${props.call ? ` for ${props.call.tool}: ${title()}` : ""}`}
      data-testid="permission-prompt"
      data-call-id={props.request.tool?.callID}
      id={`prompt-${props.request.id}`}
    >
      <header class="prompt-head">
        <strong>Permission: {props.request.permission}</strong>
        <span class="prompt-queue">
          {props.position} of {props.total}
        </span>
      </header>
      <Show when={props.call}>
        {(call) => (
          <div class="prompt-asker" data-testid="prompt-asker">
            <p class="prompt-line">
              Asked by <strong class="prompt-tool">{call().tool}</strong>
              <span class="prompt-title" data-testid="prompt-title">
                {title()}
              </span>
              <button
                type="button"
                class="link-button"
                data-testid="prompt-show-call"
                onClick={() => jumpTo(cardSelector(call().id))}
                title="Scroll to the call's card"
              >
                Show the call
              </button>
            </p>
            <Show when={!command()}>
              <pre class="prompt-input" data-testid="prompt-input">
                {inputLines(call().input)}
              </pre>
            </Show>
          </div>
        )}
      </Show>
      <p class="prompt-line">
        Patterns: <code data-testid="prompt-patterns">{props.request.patterns.join(", ")}</code>
      </p>
      <Show when={command()}>
        <pre class="prompt-stake" data-testid="prompt-command">
          {command()}
        </pre>
      </Show>
      <Show when={folder()}>
        <p class="prompt-line">
          Folder outside the workspace: <code data-testid="prompt-folder">{folder()}</code>
        </p>
      </Show>
      <Show when={text(meta().diff)}>
        <DiffView diff={text(meta().diff)!} label="Proposed change" />
      </Show>
      <div class="prompt-actions">
        <button type="button" class="button primary" onClick={() => props.onReply("once")}>
          Allow once
        </button>
        <button type="button" class="button" onClick={() => props.onReply("always", undefined, saveToConfig())} data-testid="allow-always">
          Always allow{" "}
          <span class="always-patterns">
            ({props.request.permission}: {props.request.always.join(", ")})
          </span>
        </button>
        <label class="prompt-save">
          <input
            type="checkbox"
            checked={saveToConfig()}
            onChange={(e) => setSaveToConfig(e.currentTarget.checked)}
            data-testid="save-always"
          />
          also save to the workspace config (opencode.json)
        </label>
        <input
          type="text"
          class="prompt-message"
          placeholder="Why not (optional, told to the caller)"
          aria-label="Rejection message"
          value={message()}
          onInput={(e) => setMessage(e.currentTarget.value)}
        />
        <button type="button" class="button danger" onClick={() => props.onReply("reject", message())}>
          Reject
        </button>
      </div>
    </section>
  );
}
