import { Show } from "solid-js";

/** What a Settings form's save said: read out politely when it worked, as an alert when it did not. */
export function SaveStatus(props: { status: { text: string; error?: boolean } | undefined; testid: string }) {
  return (
    <Show when={props.status}>
      {(status) => (
        <span
          class={status().error ? "settings-error" : "settings-ok"}
          role={status().error ? "alert" : "status"}
          data-testid={props.testid}
        >
          {status().text}
        </span>
      )}
    </Show>
  );
}
