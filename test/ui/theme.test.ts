// @vitest-environment happy-dom
import { createRoot } from "solid-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTheme } from "../../src/ui/theme.js";

function systemPrefers(light: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: light,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal("matchMedia", () => query);
  return {
    change(next: boolean) {
      query.matches = next;
      for (const listener of listeners) listener();
    },
  };
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  delete document.documentElement.dataset.theme;
});

describe("contract: the theme follows the system until the user chooses, then remembers the choice", () => {
  it("starts from prefers-color-scheme and follows its changes while nothing is chosen", () => {
    const system = systemPrefers(true);
    createRoot((dispose) => {
      const { theme } = createTheme();
      expect(theme()).toBe("light");
      expect(document.documentElement.dataset.theme).toBe("light");
      system.change(false);
      expect(theme()).toBe("dark");
      expect(document.documentElement.dataset.theme).toBe("dark");
      dispose();
    });
  });

  it("a toggle is stored, wins over the system, and is what the next page load starts with", () => {
    const system = systemPrefers(false);
    createRoot((dispose) => {
      const { theme, toggle } = createTheme();
      expect(theme()).toBe("dark");
      toggle();
      expect(theme()).toBe("light");
      expect(localStorage.getItem("workbench.theme")).toBe("light");
      system.change(false);
      expect(theme()).toBe("light");
      dispose();
    });
    createRoot((dispose) => {
      expect(createTheme().theme()).toBe("light");
      dispose();
    });
  });
});
