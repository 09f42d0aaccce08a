import { For, Show } from "solid-js";
import type { PageTools } from "../../page/page-tools.js";
import { TRUST_CHANGES } from "./trust-offer.js";

/**
 * The workspace's own code: the files that would run if the workspace were trusted (with the button
 * that trusts it), and the custom tools or plugins that failed to load once it is.
 */
export function TrustNotice(props: { page: PageTools; onTrust?: () => void; trusting?: boolean }) {
  const relative = (file: string) => {
    const root = props.page.session.runtime.root.replace(/\/+$/, "");
    return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
  };
  return (
    <>
      <Show when={!props.page.trusted && props.page.untrustedFiles.length > 0}>
        <div class="trust-notice" role="region" aria-label="Workspace code not run" data-testid="trust-notice">
          <Show
            when={props.onTrust}
            fallback={<p>This workspace has its own tools or plugins. An embed never runs them (the page around it chose them):</p>}
          >
            <p>This workspace has its own tools or plugins. They run only if you trust it:</p>
          </Show>
          <ul class="trust-files">
            <For each={props.page.untrustedFiles}>
              {(file) => (
                <li>
                  <code>{relative(file)}</code>
                </li>
              )}
            </For>
          </ul>
          <Show when={props.onTrust}>
            {(onTrust) => (
              <>
                <p>Trusting it changes more than its tools:</p>
                <ul class="trust-changes" data-testid="trust-changes">
                  <For each={TRUST_CHANGES}>{(change) => <li>{change}</li>}</For>
                </ul>
                <button
                  type="button"
                  class="button primary"
                  onClick={() => onTrust()()}
                  disabled={props.trusting}
                  data-testid="trust-workspace"
                >
                  Trust this workspace
                </button>
              </>
            )}
          </Show>
        </div>
      </Show>
      <Show when={props.page.problems.length > 0}>
        <div class="trust-problems" role="alert" data-testid="load-problems">
          <p>Custom tools or plugins that failed to load:</p>
          <ul>
            <For each={props.page.problems}>
              {(problem) => (
                <li>
                  <code>{relative(problem.file)}</code>: {problem.error}
                </li>
              )}
            </For>
          </ul>
        </div>
      </Show>
    </>
  );
}
