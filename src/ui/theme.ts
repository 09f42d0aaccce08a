import { createSignal, onCleanup, type Accessor } from "solid-js";

export type ThemeName = "light" | "dark";

const STORAGE_KEY = "workbench.theme";

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function stored(): ThemeName | undefined {
  const value = storage()?.getItem(STORAGE_KEY);
  return value === "light" || value === "dark" ? value : undefined;
}

/** The theme to paint with before the app mounts: the stored choice, else the system's preference. */
export function initialTheme(): ThemeName {
  return stored() ?? (window.matchMedia?.("(prefers-color-scheme: light)").matches ? "light" : "dark");
}

/**
 * The page's theme: the user's choice once made (remembered in localStorage), the system's
 * preference until then, following it if it changes. The CSS reads `data-theme` on <html>.
 */
export function createTheme(): { theme: Accessor<ThemeName>; toggle: () => void } {
  const query = window.matchMedia?.("(prefers-color-scheme: light)");
  const system = (): ThemeName => (query?.matches ? "light" : "dark");
  const [theme, setTheme] = createSignal<ThemeName>(stored() ?? system());
  const apply = (name: ThemeName) => {
    document.documentElement.dataset.theme = name;
    setTheme(name);
  };
  apply(theme());
  const follow = () => {
    if (!stored()) apply(system());
  };
  query?.addEventListener("change", follow);
  onCleanup(() => query?.removeEventListener("change", follow));
  return {
    theme,
    toggle: () => {
      const next = theme() === "dark" ? "light" : "dark";
      storage()?.setItem(STORAGE_KEY, next);
      apply(next);
    },
  };
}
