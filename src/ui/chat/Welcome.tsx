/**
 * The chat before any model is ready: what the agent is and what a key is for. The ways to start (a key,
 * the recorded demo, a sample, a template) live in one place, the desk's welcome, so this card only
 * points there and at the Keys button below rather than repeating them.
 */
export function Welcome() {
  return (
    <section class="chat-welcome" data-testid="chat-welcome" aria-labelledby="chat-welcome-title">
      <h2 id="chat-welcome-title">Talk to a coding agent about this workspace</h2>
      <p>
        The agent runs in this tab with your own key: it reads and edits the files here, runs commands in the page's runtime, and asks you
        before anything the permission rules do not allow.
      </p>
      <ol>
        <li>Get an API key from OpenAI, Anthropic, Google or OpenRouter, or start a local server (Ollama, LM Studio, llama.cpp, vLLM).</li>
        <li>
          Add it with <strong>Keys</strong> below. It is sent only to that provider and never written into the workspace, an export or a
          link.
        </li>
      </ol>
      <p class="tools-note" data-testid="chat-welcome-start">
        No key yet? The welcome above the desk replays a recorded demo (no key, no network) or opens a sample or a template; Session ▾ →
        Getting started brings it back.
      </p>
    </section>
  );
}
