import { createSignal, Show } from "solid-js";
import { saveFetchProxy, savedFetchProxy } from "../../page/web/proxy-setting.js";
import { errorMessage } from "../../base/error-message.js";

/**
 * Settings → Web: the fetch proxy webfetch uses when a site refuses the page's direct request (CORS).
 * Remembered in this browser only; it applies at once, to every workspace.
 */
export function WebSettings(props: { configured?: string; trusted: boolean }) {
  const [value, setValue] = createSignal(savedFetchProxy() ?? "");
  const [message, setMessage] = createSignal<{ text: string; error: boolean }>();
  const save = (event: SubmitEvent) => {
    event.preventDefault();
    try {
      saveFetchProxy(value());
      setMessage({
        text: value().trim() ? "Saved: webfetch uses this proxy when a site refuses the page." : "Cleared: no proxy of your own.",
        error: false,
      });
    } catch (error) {
      setMessage({ text: errorMessage(error), error: true });
    }
  };
  return (
    <section class="settings-section" aria-labelledby="settings-web">
      <h3 id="settings-web">Web</h3>
      <p class="settings-help">
        Most sites do not let other sites' pages read them (CORS), so webfetch in this tab can read them only through a fetch proxy. Give
        its address with <code>{"{url}"}</code> where the page's URL goes (without it, the URL is added at the end). The proxy sees every
        URL fetched; no cookies or logins are sent. The workbench CLI needs no proxy.
      </p>
      <form class="explain-form" onSubmit={save} data-testid="fetch-proxy-form">
        <label>
          Fetch proxy
          <input
            type="text"
            value={value()}
            placeholder="https://your-proxy.example/?url={url}"
            onInput={(e) => setValue(e.currentTarget.value)}
            data-testid="fetch-proxy"
          />
        </label>
        <button type="submit" class="button">
          Save
        </button>
      </form>
      <Show when={message()}>
        {(shown) => (
          <p
            class={shown().error ? "settings-error" : "settings-ok"}
            role={shown().error ? "alert" : "status"}
            data-testid="fetch-proxy-message"
          >
            {shown().text}
          </p>
        )}
      </Show>
      <Show when={props.configured}>
        <p class="settings-help" data-testid="config-fetch-proxy">
          This workspace's opencode.json names <code>{props.configured}</code> (workbench.fetchProxy):{" "}
          {props.trusted ? "used when you set none here." : "not used until you trust the workspace, since it would see every URL fetched."}
        </p>
      </Show>
    </section>
  );
}
