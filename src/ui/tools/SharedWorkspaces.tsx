import { createResource, createSignal, For, Show } from "solid-js";
import { forgetTrust } from "./trust.js";
import { errorMessage } from "../../base/error-message.js";

/**
 * The workspaces share links made in this browser, each with a way to open it and to delete it (files,
 * sessions and trust), so opened links do not pile up unseen. The open workspace cannot be deleted from
 * inside itself: its files are in use.
 */
export function SharedWorkspaces(props: { current: string }) {
  const load = () => import("../../page/shared-workspaces.js");
  const [names, { refetch }] = createResource(async () => (await load()).listSharedWorkspaces());
  const [problem, setProblem] = createSignal<string>();
  const remove = async (name: string) => {
    setProblem(undefined);
    try {
      await (await load()).deleteSharedWorkspace(name);
      forgetTrust(name);
    } catch (error) {
      setProblem(`Could not delete ${name}: ${errorMessage(error)}`);
    }
    await refetch();
  };
  const href = (name: string) => `?workspace=${encodeURIComponent(name)}&shared=1`;
  return (
    <section class="settings-section" aria-labelledby="settings-shared" data-testid="shared-workspaces">
      <h3 id="settings-shared">Workspaces from share links</h3>
      <Show
        when={(names() ?? []).length > 0}
        fallback={<p class="settings-help">No workspace from a share link is kept in this browser.</p>}
      >
        <p class="settings-help">Each link opened made one of these; they stay in this browser until deleted here.</p>
        <ul class="shared-list">
          <For each={names()}>
            {(name) => (
              <li data-testid="shared-workspace">
                <a href={href(name)}>{name}</a>{" "}
                <Show when={name !== props.current} fallback={<span class="settings-help">(open now)</span>}>
                  <button type="button" class="button" onClick={() => void remove(name)} aria-label={`Delete ${name}`}>
                    Delete
                  </button>
                </Show>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={problem()}>
        <p class="settings-help error" role="alert">
          {problem()}
        </p>
      </Show>
    </section>
  );
}
