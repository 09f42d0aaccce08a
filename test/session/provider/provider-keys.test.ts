import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeyStore, MemoryKeyStorage } from "../../../src/session/provider/keys.js";

describe("the page's key store", () => {
  it("keeps a key in memory only, unless remembered on this device", async () => {
    const device = new MemoryKeyStorage();
    const tab = new KeyStore(device);
    await tab.set("openai", " sk-tab ", { remember: false });
    await tab.set("anthropic", "sk-ant-device", { remember: true });
    expect(await tab.get("openai")).toBe("sk-tab");
    expect(await device.list()).toEqual(["anthropic"]);

    // A reload: a new store over the same device storage.
    const reloaded = new KeyStore(device);
    expect(await reloaded.get("openai")).toBeUndefined();
    expect(await reloaded.get("anthropic")).toBe("sk-ant-device");
    expect(await reloaded.status()).toEqual([{ providerID: "anthropic", remembered: true }]);
  });

  it("unticking 'remember' removes the stored copy; forget removes both", async () => {
    const device = new MemoryKeyStorage();
    const store = new KeyStore(device);
    await store.set("google", "g-1", { remember: true });
    await store.set("google", "g-2", { remember: false });
    expect(await device.get("google")).toBeUndefined();
    expect(await store.get("google")).toBe("g-2");
    await store.set("google", "g-3", { remember: true });
    await store.forget("google");
    expect(await store.get("google")).toBeUndefined();
    expect(await device.list()).toEqual([]);
  });

  it("never serializes a key, refuses an empty one, and says when it cannot remember", async () => {
    const store = new KeyStore();
    await store.set("openrouter", "sk-or-secret", { remember: false });
    expect(JSON.stringify({ session: "x", keys: store })).not.toContain("sk-or-secret");
    await expect(store.set("openrouter", "   ", { remember: false })).rejects.toThrow(/empty/);
    expect(store.canRemember).toBe(false);
    await expect(store.set("openai", "sk", { remember: true })).rejects.toThrow(/cannot store keys/);
    // Refused to remember, it still holds the key for this tab.
    expect(await store.get("openai")).toBe("sk");
  });
});

describe("the provider SDK stays off the first paint", () => {
  it("no module in src/session/provider imports the AI SDK at load time (only types, or import())", () => {
    const folder = join(import.meta.dirname, "../../../src/session/provider");
    const offenders: string[] = [];
    for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
      const text = readFileSync(join(folder, file), "utf8");
      for (const match of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"((?:@ai-sdk\/[^"]+)|ai)";/gm))
        offenders.push(`${file}: ${match[1]}`);
    }
    expect(offenders).toEqual([]);
    // And the factory does load the packages, lazily.
    expect(readFileSync(join(folder, "factory.ts"), "utf8")).toContain('await import("@ai-sdk/anthropic")');
  });
});
