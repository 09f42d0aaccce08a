import { describe, expect, it } from "vitest";
import { LocalProviders, type TextStorage } from "../../../src/session/provider/local-providers.js";
import { listProviders } from "../../../src/session/provider/providers.js";

class MapStorage implements TextStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

describe("LocalProviders", () => {
  it("lays an added server over the config as an openai-compatible provider with its models", () => {
    const local = new LocalProviders();
    local.set({ id: "ollama", baseURL: "http://localhost:11434/v1/", models: ["llama3.2", "qwen2.5-coder"] }, { remember: false });
    const provider = listProviders(local.over({})).find((entry) => entry.id === "ollama")!;
    expect(provider.npm).toBe("@ai-sdk/openai-compatible");
    expect(provider.options.baseURL).toBe("http://localhost:11434/v1");
    expect(Object.keys(provider.models)).toEqual(["llama3.2", "qwen2.5-coder"]);
    expect(provider.builtIn).toBe(false);
  });

  it("keeps a workspace entry of the same id, taking the base URL and adding the models typed here", () => {
    const local = new LocalProviders();
    local.set({ id: "lab", baseURL: "http://127.0.0.1:8000/v1", models: ["new-model"] }, { remember: false });
    const config = local.over({
      provider: {
        lab: { name: "Lab server", options: { baseURL: "http://old/v1", headers: { "x-team": "a" } }, models: { old: { name: "Old" } } },
      },
      enabled_providers: ["lab"],
    });
    const lab = config.provider!.lab!;
    expect(lab.name).toBe("Lab server");
    expect(lab.options).toEqual({ baseURL: "http://127.0.0.1:8000/v1", headers: { "x-team": "a" } });
    expect(Object.keys(lab.models!)).toEqual(["old", "new-model"]);
  });

  it("enables an added server when the workspace lists its enabled providers", () => {
    const local = new LocalProviders();
    local.set({ id: "mine", baseURL: "http://localhost:1234/v1", models: ["m"] }, { remember: false });
    expect(listProviders(local.over({ enabled_providers: ["openai"] })).map((entry) => entry.id)).toEqual(["openai", "mine"]);
  });

  it("remembers only what was asked to be remembered, and never holds a key", () => {
    const storage = new MapStorage();
    const local = new LocalProviders(storage);
    local.set({ id: "kept", baseURL: "http://localhost:11434/v1", models: ["a"] }, { remember: true });
    local.set({ id: "tab", baseURL: "http://localhost:1234/v1", models: ["b"] }, { remember: false });
    const again = new LocalProviders(storage);
    expect(again.list().map((entry) => entry.id)).toEqual(["kept"]);
    expect(again.isRemembered("kept")).toBe(true);
    again.remove("kept");
    expect(new LocalProviders(storage).list()).toEqual([]);
    expect(storage.items.size).toBe(0);
  });

  it("refuses a bad entry with what to fix, and ignores damaged storage", () => {
    const local = new LocalProviders();
    expect(() => local.set({ id: "x", baseURL: "ftp://host/v1", models: ["m"] }, { remember: false })).toThrow(/baseURL must be an http/);
    expect(() => local.set({ id: "x", baseURL: "http://host/v1", models: [] }, { remember: false })).toThrow(
      /models name at least one model/,
    );
    expect(() => local.set({ id: "Bad Id", baseURL: "http://host/v1", models: ["m"] }, { remember: false })).toThrow(/id use lowercase/);
    const storage = new MapStorage();
    storage.setItem("workbench-local-providers", "{not json");
    expect(new LocalProviders(storage).list()).toEqual([]);
  });
});
