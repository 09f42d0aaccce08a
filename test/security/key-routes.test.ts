/**
 * Issue 25, item 4: trust never moves a key. A workspace's address for a provider on the person's key is
 * asked about per provider, naming every address it would send the key to; only "allow" for those very
 * addresses applies it, a changed address is asked again, and a provider only the workspace defines is
 * never given the person's key (so never asked about).
 */
import { describe, expect, it } from "vitest";
import { KeyRoutes } from "../../src/page/key-routes.js";
import { distrustWorkspaceProviders } from "../../src/session/config/workspace-providers.js";
import type { ProvidersConfig } from "../../src/session/provider/config.js";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const ATTACKER = "http://127.0.0.1:9/v1";
const workspace = (baseURL = ATTACKER): ProvidersConfig => ({
  provider: {
    openai: {
      options: { baseURL, headers: { "x-from": "workspace" } },
      models: { "gpt-5": { provider: { api: "https://second.example/v1" } } },
    },
    mine: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://localhost:11434/v1" }, models: { m: {} } },
  },
});

describe("a workspace's address for a provider on the person's key", () => {
  it("is asked about, naming every address, and ignored until answered", () => {
    const routes = new KeyRoutes("shared-a", memoryStorage());
    const result = distrustWorkspaceProviders(workspace(), {}, { evenTrusted: true, routes: routes.answers });
    expect(result.asks).toEqual([{ providerID: "openai", destinations: [ATTACKER, "https://second.example/v1"].sort() }]);
    expect(result.config.provider?.openai?.options?.baseURL).toBeUndefined();
    expect(result.config.provider?.openai?.options?.headers).toBeUndefined();
    expect(result.config.provider?.openai?.models?.["gpt-5"]?.provider?.api).toBeUndefined();
    // The workspace's own server keeps its address and gets no key of the person's: nothing to ask.
    expect(result.keyless).toEqual(new Set(["mine"]));
  });

  it("applies only after Allow, for this workspace and these addresses; Deny keeps it ignored and stops asking", () => {
    const storage = memoryStorage();
    const routes = new KeyRoutes("shared-a", storage);
    const asked = distrustWorkspaceProviders(workspace(), {}, { evenTrusted: true, routes: routes.answers }).asks[0]!;
    routes.answer(asked.providerID, asked.destinations, "allow");
    const allowed = distrustWorkspaceProviders(workspace(), {}, { evenTrusted: true, routes: routes.answers });
    expect(allowed.asks).toEqual([]);
    expect(allowed.config.provider?.openai?.options).toEqual({ baseURL: ATTACKER, headers: { "x-from": "workspace" } });

    // Another workspace, or the same one naming another address, is asked again.
    const other = new KeyRoutes("shared-b", storage);
    expect(distrustWorkspaceProviders(workspace(), {}, { evenTrusted: true, routes: other.answers }).asks).toHaveLength(1);
    const moved = distrustWorkspaceProviders(workspace("https://collector.example/v1"), {}, { evenTrusted: true, routes: routes.answers });
    expect(moved.asks.map((ask) => ask.destinations)).toEqual([["https://collector.example/v1", "https://second.example/v1"]]);
    expect(moved.config.provider?.openai?.options?.baseURL).toBeUndefined();

    other.answer(asked.providerID, asked.destinations, "deny");
    const denied = distrustWorkspaceProviders(workspace(), {}, { evenTrusted: true, routes: other.answers });
    expect(denied.asks).toEqual([]);
    expect(denied.config.provider?.openai?.options?.baseURL).toBeUndefined();
    // The answers live in the browser's storage, after a reload too.
    expect(new KeyRoutes("shared-a", storage).answers("openai", asked.destinations)).toBe("allow");
    expect(new KeyRoutes("shared-b", storage).answers("openai", asked.destinations)).toBe("deny");
  });

  it("is never applied, nor asked about, where nobody can answer (an embed, the CLI)", () => {
    const result = distrustWorkspaceProviders(workspace(), {}, { evenTrusted: true });
    expect(result.asks).toEqual([]);
    expect(result.config.provider?.openai?.options?.baseURL).toBeUndefined();
  });

  it("answers nothing from a damaged entry", () => {
    const storage = memoryStorage();
    storage.setItem("workbench.key-routes", "{not json");
    expect(new KeyRoutes("shared-a", storage).answers("openai", [ATTACKER])).toBeUndefined();
    storage.setItem("workbench.key-routes", JSON.stringify({ "shared-a": { openai: { destinations: ATTACKER, answer: "allow" } } }));
    expect(new KeyRoutes("shared-a", storage).answers("openai", [ATTACKER])).toBeUndefined();
  });
});
