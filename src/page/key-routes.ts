/**
 * The person's answers to "this workspace sends your key for <provider> to <address>": per workspace, per
 * provider, for the exact addresses asked about (a config that later names another address is asked
 * again). Kept in this browser's localStorage, never in the workspace, so a link cannot carry an answer.
 */
import type { KeyRouteAnswers } from "../session/config/workspace-providers.js";
import type { TextStorage } from "../session/provider/local-providers.js";

const STORAGE_KEY = "workbench.key-routes";

type Answer = "allow" | "deny";
type Saved = Record<string, Record<string, { destinations: string[]; answer: Answer }>>;

export class KeyRoutes {
  /** Answers given in this tab when the browser keeps none (no storage): they last until the tab closes. */
  private memory: Saved = {};

  constructor(
    private readonly workspace: string,
    private readonly storage?: TextStorage,
  ) {}

  private read(): Saved {
    try {
      const parsed: unknown = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? "null");
      return parsed && typeof parsed === "object" ? (parsed as Saved) : this.memory;
    } catch {
      // A damaged entry answers nothing: each provider is asked again.
      return this.memory;
    }
  }

  /** What the session's provider check asks. */
  readonly answers: KeyRouteAnswers = (providerID, destinations) => {
    const saved = this.read()[this.workspace]?.[providerID];
    if (!saved || !Array.isArray(saved.destinations)) return undefined;
    const same = saved.destinations.length === destinations.length && saved.destinations.every((d, i) => d === destinations[i]);
    return same && (saved.answer === "allow" || saved.answer === "deny") ? saved.answer : undefined;
  };

  answer(providerID: string, destinations: readonly string[], answer: Answer): void {
    const saved = this.read();
    saved[this.workspace] = { ...saved[this.workspace], [providerID]: { destinations: [...destinations], answer } };
    this.memory = saved;
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(saved));
    } catch {
      // Kept in memory: asked again after a reload.
    }
  }
}
