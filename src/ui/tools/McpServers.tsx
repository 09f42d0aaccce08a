import { createSignal, For, onCleanup, Show } from "solid-js";
import type { McpServerView } from "../../session/host/mcp/manager.js";
import { LOCAL_NEEDS_NODE, NEEDS_TRUST } from "../../session/host/mcp/messages.js";
import type { PageTools } from "../../page/page-tools.js";

const STATE_TEXT: Record<McpServerView["status"]["state"], string> = {
  connecting: "connecting…",
  connected: "connected",
  failed: "not connected",
  disabled: "disabled in opencode.json",
};

/**
 * The workspace's MCP servers (opencode.json `mcp`) and how each is doing: its tools once connected, its
 * error and a Retry when it failed or died. Nothing is shown when the workspace names none.
 */
export function McpServers(props: { page: PageTools; onTrust?: () => void; trusting?: boolean }) {
  const [servers, setServers] = createSignal(props.page.mcpServers());
  const [retrying, setRetrying] = createSignal<string>();
  onCleanup(props.page.onMcpChange(() => setServers(props.page.mcpServers())));
  const retry = async (name: string) => {
    setRetrying(name);
    await props.page.retryMcp(name).catch(() => {});
    setRetrying(undefined);
  };
  return (
    <Show when={servers().length > 0}>
      <div class="mcp-servers" role="region" aria-label="MCP servers" data-testid="mcp-servers">
        <p>MCP servers</p>
        <ul>
          <For each={servers()}>
            {(server) => (
              <li data-testid="mcp-server" data-name={server.name} data-state={server.status.state}>
                <span class="mcp-name">{server.name}</span>{" "}
                <span class={`mcp-state mcp-${server.status.state}`}>{STATE_TEXT[server.status.state]}</span>
                <Show when={server.status.state === "connected" ? server.status : undefined}>
                  {(connected) => (
                    <>
                      <span class="mcp-tools"> {connected().tools.length === 0 ? "no tools" : connected().tools.join(", ")}</span>
                      <For each={connected().left ?? []}>
                        {(note) => (
                          <span class="mcp-error" data-testid="mcp-left">
                            {" "}
                            {note}
                          </span>
                        )}
                      </For>
                    </>
                  )}
                </Show>
                <Show when={server.status.state === "failed" ? server.status : undefined}>
                  {(failed) => (
                    <>
                      <span class="mcp-error" data-testid="mcp-error">
                        {failed().error}
                      </span>
                      <Show
                        when={failed().error !== NEEDS_TRUST}
                        fallback={
                          <Show when={props.onTrust}>
                            {(onTrust) => (
                              <button
                                type="button"
                                class="button"
                                disabled={props.trusting}
                                onClick={() => onTrust()()}
                                data-testid="mcp-trust"
                              >
                                Trust this workspace
                              </button>
                            )}
                          </Show>
                        }
                      >
                        <Show when={failed().error !== LOCAL_NEEDS_NODE}>
                          <button
                            type="button"
                            class="button"
                            disabled={retrying() === server.name}
                            onClick={() => void retry(server.name)}
                            data-testid="mcp-retry"
                          >
                            Retry
                          </button>
                        </Show>
                      </Show>
                    </>
                  )}
                </Show>
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  );
}
