/**
 * The frame asks its reader before a host page's message goes to the reader's model: the host's origin,
 * the message and the model are named, and the answer is for this message only (never remembered).
 */

/** A host page's message waiting for the reader (the same shape as src/embed's HostMessageRequest). */
export interface HostMessageRequest {
  /** The host page's origin, as the frame's handshake saw it. */
  host: string;
  message: string;
  /** `provider/model`: the reader's model that would answer. */
  model: string;
}

export function HostMessagePrompt(props: { request: HostMessageRequest; waiting: number; onAnswer: (allowed: boolean) => void }) {
  return (
    <section
      class="permission-prompt host-message-prompt"
      role="alertdialog"
      aria-label="Send the page's message?"
      data-testid="host-message-prompt"
    >
      <header class="prompt-head">
        <strong>The page wants to send a message on your key</strong>
        {props.waiting > 1 ? <span class="prompt-queue">1 of {props.waiting}</span> : null}
      </header>
      <p class="prompt-line">
        <strong data-testid="host-message-origin">{props.request.host}</strong> asks to send this message to{" "}
        <code data-testid="host-message-model">{props.request.model}</code>, which your key pays for:
      </p>
      <pre class="prompt-stake" data-testid="host-message-text">
        {props.request.message}
      </pre>
      <div class="prompt-actions">
        <button type="button" class="button primary" data-testid="host-message-allow" onClick={() => props.onAnswer(true)}>
          Allow once
        </button>
        <button type="button" class="button danger" data-testid="host-message-deny" onClick={() => props.onAnswer(false)}>
          Deny
        </button>
      </div>
    </section>
  );
}
