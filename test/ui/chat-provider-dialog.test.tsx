// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NEW_COMPATIBLE, ProviderDialog, type ProviderKeyStatus } from "../../src/ui/chat/ProviderDialog.js";

afterEach(cleanup);

const providers: ProviderKeyStatus[] = [
  { id: "openai", name: "OpenAI", hasKey: false },
  { id: "anthropic", name: "Anthropic", hasKey: true, remembered: true },
  { id: "google", name: "Google", hasKey: false },
  { id: "openrouter", name: "OpenRouter", hasKey: false },
];

function dialog(initial?: string) {
  const onSave = vi.fn(async () => undefined);
  const onRemove = vi.fn(async () => undefined);
  const onClose = vi.fn();
  render(() => <ProviderDialog providers={providers} onSave={onSave} onRemove={onRemove} onClose={onClose} initial={initial} />);
  const type = (testId: string, value: string) => fireEvent.input(screen.getByTestId(testId), { target: { value } });
  return { onSave, onRemove, onClose, type };
}

describe("contract: the provider dialog collects a key and hands it over", () => {
  it("remember is unticked by default, and Save sends the provider, key and remember choice", async () => {
    const { onSave, onClose, type } = dialog("openai");
    expect((screen.getByTestId("provider-remember") as HTMLInputElement).checked).toBe(false);
    expect(screen.getByTestId("provider-key-note").textContent).toContain("never into the workspace, an export or a share link");
    expect((screen.getByTestId("provider-key") as HTMLInputElement).type).toBe("password");
    type("provider-key", "  sk-test-123 ");
    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSave).toHaveBeenCalledWith({ providerID: "openai", key: "sk-test-123", remember: false });
  });

  it("ticking remember is passed on", async () => {
    const { onSave, type } = dialog("google");
    type("provider-key", "g-key");
    fireEvent.click(screen.getByTestId("provider-remember"));
    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ providerID: "google", key: "g-key", remember: true }));
  });

  it("a built-in provider without a key typed is not saved, and says what to do", () => {
    const { onSave } = dialog("openrouter");
    fireEvent.click(screen.getByTestId("provider-save"));
    expect(screen.getByTestId("provider-problem").textContent).toBe("Paste the OpenRouter API key first.");
    expect(onSave).not.toHaveBeenCalled();
  });

  it("a local OpenAI-compatible server: id, base URL and models, key optional", async () => {
    const { onSave, type } = dialog();
    const select = screen.getByTestId("provider-select") as HTMLSelectElement;
    select.value = NEW_COMPATIBLE;
    fireEvent.change(select);
    type("provider-id", "ollama");
    type("provider-base-url", "ftp://localhost/v1");
    fireEvent.click(screen.getByTestId("provider-save"));
    expect(screen.getByTestId("provider-problem").textContent).toContain("http:// or https://");
    type("provider-base-url", "http://localhost:11434/v1");
    fireEvent.click(screen.getByTestId("provider-save"));
    expect(screen.getByTestId("provider-problem").textContent).toContain("Name the model");
    expect(onSave).not.toHaveBeenCalled();
    type("provider-models", "llama3.2, qwen2.5-coder");
    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith({
        providerID: "ollama",
        key: "",
        remember: false,
        baseURL: "http://localhost:11434/v1",
        models: "llama3.2, qwen2.5-coder",
      }),
    );
  });

  it("a local server is asked nothing about remembering until a key is typed: its address is kept anyway", () => {
    dialog();
    const select = screen.getByTestId("provider-select") as HTMLSelectElement;
    select.value = NEW_COMPATIBLE;
    fireEvent.change(select);
    expect(screen.queryByTestId("provider-remember")).toBeNull();
    expect(screen.getByTestId("provider-key-note").textContent).toContain("address and models are kept in this browser");
    fireEvent.input(screen.getByTestId("provider-key"), { target: { value: "sk-local" } });
    expect(screen.getByTestId("provider-remember").closest("label")?.textContent).toContain("Remember the key on this device");
    expect(screen.getByTestId("provider-key-note").textContent).toContain("forgotten on reload");
  });

  it("a provider with a key offers Remove, which calls onRemove with its id", async () => {
    const { onRemove } = dialog("anthropic");
    fireEvent.click(screen.getByTestId("provider-remove"));
    await waitFor(() => expect(onRemove).toHaveBeenCalledWith("anthropic"));
  });

  it("Escape closes it without saving", () => {
    const { onSave, onClose } = dialog("openai");
    fireEvent.keyDown(screen.getByTestId("provider-key"), { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
  });
});
