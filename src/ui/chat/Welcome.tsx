/** The first visit, with no key yet: how to add one, and a recorded demo to watch right away. */
export function Welcome(props: { onAddKey: () => void; onWatchDemo: () => void }) {
  return (
    <section class="chat-welcome" data-testid="chat-welcome" aria-labelledby="chat-welcome-title">
      <h2 id="chat-welcome-title">Talk to a coding agent about this workspace</h2>
      <p>
        The agent runs in this tab with your own key: it reads and edits the files here, runs commands in the page's runtime, and asks you
        before anything the permission rules do not allow.
      </p>
      <ol>
        <li>Get an API key from OpenAI, Anthropic, Google or OpenRouter, or start a local server (Ollama, LM Studio, llama.cpp, vLLM).</li>
        <li>Add it here. It is sent only to that provider and never written into the workspace, an export or a link.</li>
      </ol>
      <div class="chat-welcome-actions">
        <button type="button" class="button primary" data-testid="welcome-add-key" onClick={() => props.onAddKey()}>
          Add a provider key…
        </button>
        <button type="button" class="button" data-testid="welcome-demo" onClick={() => props.onWatchDemo()}>
          Watch a recorded demo
        </button>
      </div>
      <p class="tools-note">The demo replays a recorded conversation offline: no key and no network needed.</p>
    </section>
  );
}
