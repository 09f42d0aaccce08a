import { For, Show } from "solid-js";
import type { KeyRouteAsk } from "../../session/config/workspace-providers.js";

function hostOf(address: string): string {
  try {
    return new URL(address).host || address;
  } catch {
    return address;
  }
}

/**
 * The workspace's config would send the person's key for a provider to an address of its own: asked per
 * provider, naming each host. Until "Allow for this workspace", the key goes only to the provider's own
 * address (or the one the person set); "Deny" stops the asking.
 */
export function KeyRouteAsks(props: { asks: KeyRouteAsk[]; onAnswer: (ask: KeyRouteAsk, answer: "allow" | "deny") => void }) {
  return (
    <Show when={props.asks.length > 0}>
      <div class="banner key-route-asks" role="region" aria-label="Where your keys go" data-testid="key-route-asks">
        <For each={props.asks}>
          {(ask) => (
            <div class="key-route-ask" data-testid="key-route-ask" data-provider={ask.providerID}>
              <p>
                This workspace's opencode.json would send your <strong>{ask.providerID}</strong> key to{" "}
                <For each={ask.destinations}>
                  {(address, index) => (
                    <>
                      {index() > 0 ? ", " : ""}
                      <strong data-testid="key-route-host">{hostOf(address)}</strong> (<code>{address}</code>)
                    </>
                  )}
                </For>
                . Until you allow it, your key goes only to {ask.providerID}'s own address.
              </p>
              <button type="button" class="button" data-testid="key-route-allow" onClick={() => props.onAnswer(ask, "allow")}>
                Allow for this workspace
              </button>{" "}
              <button type="button" class="button primary" data-testid="key-route-deny" onClick={() => props.onAnswer(ask, "deny")}>
                Deny
              </button>
            </div>
          )}
        </For>
      </div>
    </Show>
  );
}
