/**
 * The page's chats: one Chat per session of the Tools controller, each on its PageTools' ToolSession
 * (agents, permissions, the runner), with the workspace's providers (opencode.json over the built-in
 * catalog, plus the OpenAI-compatible servers the person added), keys from the KeyStore (memory, or
 * IndexedDB when remembered), OpenCode's system prompt and the session store, so messages persist with
 * the session. Recorded scripts (the demo, "Replay a script…") run through the same loop with the
 * scripted provider standing in for a model.
 *
 * The page imports this module on first use, which is what keeps the AI SDK out of the first paint.
 */
import { sessionTitleFrom } from "../session/record/session-title.js";
import type { ToolSession } from "../session/host/tool-session.js";
import { Chat } from "../session/chat/chat.js";
import type { ModelChoice, ProviderKeyStatus } from "../session/chat/chat-view.js";
import type { ModelRef } from "../session/record/message.js";
import type { PageTools } from "./page-tools.js";
import { OPENAI_COMPATIBLE } from "../session/provider/catalog.js";
import { parseProvidersConfig, type ProvidersConfig } from "../session/provider/config.js";
import { resolveModel } from "../session/provider/factory.js";
import { openIndexedDBKeyStorage } from "./storage/indexeddb-key-storage.js";
import { KeyStore } from "../session/provider/keys.js";
import { distrustWorkspaceProviders, withoutPersonKeys, type KeyRouteAsk } from "../session/config/workspace-providers.js";
import { KeyRoutes } from "./key-routes.js";
import { LocalProviders, type TextStorage } from "../session/provider/local-providers.js";
import { defaultModelRef } from "../session/provider/model-choice.js";
import { listProviders, type ProviderEntry } from "../session/provider/providers.js";
import { ScriptedLanguageModel } from "../session/provider/scripted.js";
import type { ModelInfo, ResolvedModel } from "../session/provider/types.js";
import { scriptTurns, type ScriptFile } from "./script-file.js";
import { askBeforeNetwork } from "./replay-network-guard.js";
import { systemPrompt } from "../session/agent/system-prompt.js";
import { errorMessage } from "../base/error-message.js";

/** What the provider dialog lists. */
export type ProviderSummary = ProviderKeyStatus;

export interface SaveProviderInput {
  providerID: string;
  key: string;
  remember: boolean;
  baseURL?: string;
  /** For an OpenAI-compatible server: the model ids it runs, comma-separated. */
  models?: string;
}

/** The provider id recorded demos and replayed scripts run under. */
export const SCRIPTED_PROVIDER = "scripted";
const SCRIPTED_MODEL = "recording";
/** The demo streams slower than a model would, so a person can follow it. */
const DEMO_SPEED = 0.4;
const MODEL_SETTING = "workbench-chat-model";
const HOME = "/home/user";

export interface PageChatsOptions {
  keys: KeyStore;
  local: LocalProviders;
  /** Remembers the model last picked (localStorage in the page). */
  settings?: TextStorage;
  /** Why keys cannot be remembered on this device, when they cannot. */
  keyNotice?: string;
  /**
   * The person's answers on sending a key to an address a workspace names. Without them (an embed) such
   * an address is never used and never asked about.
   */
  keyRoutes?: KeyRoutes;
}

interface Opened {
  page: PageTools;
  chat: Chat;
  off: () => void;
}

function scriptedInfo(name: string): ModelInfo {
  return {
    providerID: SCRIPTED_PROVIDER,
    modelID: SCRIPTED_MODEL,
    name,
    limit: { context: 0, output: 0 },
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    attachment: false,
    reasoning: true,
  };
}

const sameRef = (a: ModelRef | undefined, b: ModelRef | undefined) => a?.providerID === b?.providerID && a?.modelID === b?.modelID;

/**
 * The provider half of the workspace config; a broken one is reported and the catalog used alone. Trusted
 * or not, nothing in it may move where the person's keys go (workspace-providers.ts):
 * `keyless` names the workspace-only providers that get none of their keys, `notices` what was ignored.
 */
function providersConfigOf(
  session: ToolSession,
  personal: ProvidersConfig,
  routes?: KeyRoutes,
): { config: ProvidersConfig; keyless: ReadonlySet<string>; notices: string[]; asks: KeyRouteAsk[]; problem?: string } {
  const { model, small_model, provider, enabled_providers, disabled_providers } = session.config;
  let config: ProvidersConfig;
  try {
    config = parseProvidersConfig(
      { model, small_model, provider, enabled_providers, disabled_providers },
      session.configPath ?? "opencode.json",
    );
  } catch (error) {
    return { config: {}, keyless: new Set(), notices: [], asks: [], problem: errorMessage(error) };
  }
  // Trust runs the workspace's code; it never moves a key: the workspace's addresses and headers for a
  // provider the person's key pays for stay ignored, trusted or not, unless the person allowed those very
  // addresses for this provider when asked (routes).
  return distrustWorkspaceProviders(config, personal, { evenTrusted: true, ...(routes ? { routes: routes.answers } : {}) });
}

function needsKey(provider: ProviderEntry): boolean {
  return provider.builtIn || provider.npm !== OPENAI_COMPATIBLE;
}

const UNNAMED = /^Session \d+$/;

/** A session still called "Session N" takes its first message's first line as its name. */
function nameAfterFirstMessage(page: PageTools): void {
  const record = page.record;
  if (!UNNAMED.test(record.title)) return;
  const first = record.messages.find((message) => message.role === "user");
  const text = first?.parts.find((part) => part.type === "text" && !part.synthetic);
  const title = text?.type === "text" ? sessionTitleFrom(text.text) : "";
  if (title !== "") record.title = title;
}

export class PageChats {
  private readonly opened = new Map<string, Opened>();
  private readonly scripts = new Map<string, { model: ScriptedLanguageModel; name: string }>();
  private readonly listeners = new Set<() => void>();
  private keyed = new Set<string>();
  private remembered = new Set<string>();

  constructor(private readonly options: PageChatsOptions) {}

  /** The page's chats with keys from IndexedDB (when it works) and servers from localStorage. */
  static async open(storage?: TextStorage, workspace?: string): Promise<PageChats> {
    const device = await openIndexedDBKeyStorage();
    const chats = new PageChats({
      ...(workspace !== undefined ? { keyRoutes: new KeyRoutes(workspace, storage) } : {}),
      keys: new KeyStore(device.storage),
      local: new LocalProviders(storage),
      ...(storage ? { settings: storage } : {}),
      ...(device.notice ? { keyNotice: device.notice } : {}),
    });
    await chats.readKeys();
    return chats;
  }

  get keyNotice(): string | undefined {
    return this.options.keyNotice;
  }

  /** Called when keys or servers change (the dialog's list, the models on offer). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The chat of `page`'s session, made on first ask; a reopened page (trust, rules) gets a new one. */
  chatFor(page: PageTools): Chat {
    const id = page.record.id;
    const known = this.opened.get(id);
    if (known?.page === page) return known.chat;
    if (known) this.close(id);
    const chat = new Chat({
      tools: page.session,
      agents: page.session.agents,
      resolveModel: (ref) => this.resolve(page, ref),
      system: (agent, model) =>
        systemPrompt({
          agent,
          model,
          runtime: page.session.runtime,
          config: page.session.config,
          now: new Date(),
          home: HOME,
          platform: "browser",
        }),
      models: () => this.models(page),
      ...this.startingModel(page),
      ...(page.sessionStore ? { store: page.sessionStore } : {}),
      // A background job that ends while the person waits wakes the agent, so nobody has to say "go on".
      resumeOnJobEnd: true,
    });
    // The model picked last is the one a new session starts with.
    let last = chat.model();
    const off = chat.onChange(() => {
      nameAfterFirstMessage(page);
      const now = chat.model();
      if (sameRef(now, last)) return;
      last = now;
      if (now && now.providerID !== SCRIPTED_PROVIDER) this.remember(now);
    });
    this.opened.set(id, { page, chat, off });
    return chat;
  }

  /** Stops and forgets a session's chat (the session was deleted or reopened). */
  close(sessionID: string): void {
    const known = this.opened.get(sessionID);
    if (!known) return;
    known.off();
    known.chat.dispose();
    this.opened.delete(sessionID);
  }

  dispose(): void {
    for (const id of [...this.opened.keys()]) this.close(id);
    this.listeners.clear();
  }

  /** The problem with the workspace's provider settings, if any (the catalog is used meanwhile). */
  configProblem(page: PageTools): string | undefined {
    const { problem, notices } = this.workspaceProviders(page);
    const all = [...(problem ? [problem] : []), ...notices];
    return all.length > 0 ? all.join("\n") : undefined;
  }

  private workspaceProviders(page: PageTools) {
    return providersConfigOf(page.session, this.options.local.over({}), this.options.keyRoutes);
  }

  /** The providers whose key the workspace would send to an address of its own, to ask the person about. */
  keyRouteAsks(page: PageTools): KeyRouteAsk[] {
    return this.options.keyRoutes ? this.workspaceProviders(page).asks : [];
  }

  /** The person's answer for `ask`: only "allow" ever lets the key go to those addresses. */
  answerKeyRoute(ask: KeyRouteAsk, answer: "allow" | "deny"): void {
    this.options.keyRoutes?.answer(ask.providerID, ask.destinations, answer);
    this.changed();
  }

  private config(page: PageTools): ProvidersConfig {
    return this.options.local.over(this.workspaceProviders(page).config);
  }

  private ready(provider: ProviderEntry): boolean {
    return this.keyed.has(provider.id) || Boolean(provider.options.apiKey) || !needsKey(provider);
  }

  models(page: PageTools): ModelChoice[] {
    const choices: ModelChoice[] = [];
    const script = this.scripts.get(page.record.id);
    if (script) choices.push({ providerID: SCRIPTED_PROVIDER, modelID: SCRIPTED_MODEL, name: script.name, attachment: false, ready: true });
    for (const provider of listProviders(this.config(page))) {
      const ready = this.ready(provider);
      for (const model of Object.values(provider.models)) {
        choices.push({ providerID: provider.id, modelID: model.key, name: model.name, attachment: model.attachment, ready });
      }
    }
    return choices;
  }

  /** The providers the dialog offers, with whether each has a key (never the key). */
  providers(page: PageTools): ProviderSummary[] {
    return listProviders(this.config(page)).map((provider) => {
      const local = this.options.local.get(provider.id);
      const compatible = provider.npm === OPENAI_COMPATIBLE && !provider.builtIn;
      return {
        id: provider.id,
        name: provider.name,
        hasKey: this.keyed.has(provider.id),
        ...(this.remembered.has(provider.id) ? { remembered: true } : {}),
        ...(provider.options.baseURL || provider.api ? { baseURL: provider.options.baseURL || provider.api } : {}),
        ...(compatible ? { compatible: true, models: local?.models.join(", ") ?? Object.keys(provider.models).join(", ") } : {}),
      };
    });
  }

  /**
   * Saves a key (and, for an OpenAI-compatible server, its base URL and models), then gives every chat
   * without a usable model the default one.
   */
  async saveProvider(page: PageTools, input: SaveProviderInput): Promise<void> {
    const existing = listProviders(this.config(page)).find((provider) => provider.id === input.providerID);
    const compatible = input.baseURL !== undefined && (!existing || (!existing.builtIn && existing.npm === OPENAI_COMPATIBLE));
    if (compatible) {
      const models = (input.models ?? "")
        .split(",")
        .map((model) => model.trim())
        .filter(Boolean);
      // A server's address and models are no secret: they are kept on this device whatever is chosen for
      // the key, so a local server without a key is still there after a reload.
      this.options.local.set({ id: input.providerID, baseURL: input.baseURL!, models }, { remember: true });
    }
    if (input.key.trim() !== "") await this.options.keys.set(input.providerID, input.key, { remember: input.remember });
    else if (!compatible) throw new Error(`Paste the ${existing?.name ?? input.providerID} API key first.`);
    await this.readKeys();
    this.settle();
    this.changed();
  }

  /** Forgets a provider's key, and a server the person added with it. */
  async removeProvider(providerID: string): Promise<void> {
    await this.options.keys.forget(providerID);
    this.options.local.remove(providerID);
    await this.readKeys();
    this.settle();
    this.changed();
  }

  /**
   * Plays a recorded script in `page`'s chat through the real loop, turn by turn: the person's message,
   * then each step streamed at `speed`, its tool calls run (and asking permission) like a model's. A
   * turn that is stopped or fails ends the playing. The model picked before comes back afterwards.
   * `shared`: the recording came from someone else (a share link), so every network call asks first.
   */
  async runScript(page: PageTools, file: ScriptFile, options: { speed?: number; name?: string; shared?: boolean } = {}): Promise<void> {
    const chat = this.chatFor(page);
    if (chat.status().type !== "idle") throw new Error("The chat is still answering: stop it (or wait), then play the recording.");
    const id = page.record.id;
    const before = chat.model();
    const unguard = options.shared ? askBeforeNetwork(page) : () => {};
    try {
      for (const turn of scriptTurns(file)) {
        const model = new ScriptedLanguageModel(
          { version: 1, steps: turn.steps },
          { speed: options.speed ?? DEMO_SPEED, modelId: SCRIPTED_MODEL },
        );
        this.scripts.set(id, { model, name: options.name ?? "Recorded demo" });
        chat.setModel({ providerID: SCRIPTED_PROVIDER, modelID: SCRIPTED_MODEL });
        const messages = page.record.messages.length;
        await chat.send({ text: turn.prompt });
        // A turn the person stopped (or that failed) leaves its last answer unfinished: the rest is not played.
        if (!this.turnFinished(page, messages)) break;
      }
    } finally {
      unguard();
      this.scripts.delete(id);
      const next = before && before.providerID !== SCRIPTED_PROVIDER ? before : this.defaultModel(page);
      if (next) chat.setModel(next);
      else chat.clearModel();
    }
  }

  /** Whether the turn whose messages start at `from` ended as the model meant it to (not stopped, not failed). */
  private turnFinished(page: PageTools, from: number): boolean {
    const last = page.record.messages.slice(from).findLast((message) => message.role === "assistant");
    return last?.role === "assistant" && last.error === undefined && last.finish !== undefined && last.finish !== "unknown";
  }

  private async resolve(page: PageTools, ref: ModelRef): Promise<ResolvedModel> {
    if (ref.providerID === SCRIPTED_PROVIDER) {
      const script = this.scripts.get(page.record.id);
      if (!script) throw new Error("The recording has ended: pick a model above (and add its key) to go on.");
      return { info: scriptedInfo(script.name), language: script.model };
    }
    const { keyless } = this.workspaceProviders(page);
    const keys = keyless.size > 0 ? withoutPersonKeys(this.options.keys, keyless) : this.options.keys;
    return resolveModel(ref, { config: this.config(page), keys, page: true });
  }

  private defaultModel(page: PageTools): ModelRef | undefined {
    const config = this.config(page);
    const providers = new Map(listProviders(config).map((provider) => [provider.id, provider]));
    const remembered = this.rememberedModel();
    if (remembered && providers.get(remembered.providerID)?.models[remembered.modelID] && this.ready(providers.get(remembered.providerID)!))
      return remembered;
    return defaultModelRef(config, (id) => {
      const provider = providers.get(id);
      return provider !== undefined && this.ready(provider);
    });
  }

  /** The model a chat starts with: the session's last, else the one picked last, else the default. */
  private startingModel(page: PageTools): { model?: ModelRef } {
    const messages = page.record.messages;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (message.role === "user" && message.model.providerID !== SCRIPTED_PROVIDER) return { model: message.model };
    }
    const model = this.defaultModel(page);
    return model ? { model } : {};
  }

  /** After keys change: a chat with no usable model takes the default one; the rest re-read their models. */
  private settle(): void {
    for (const { page, chat } of this.opened.values()) {
      const current = chat.model();
      const usable = current !== undefined && this.models(page).some((choice) => sameRef(choice, current) && choice.ready);
      const next = usable ? undefined : this.defaultModel(page);
      if (next && !sameRef(next, current) && chat.status().type === "idle") chat.setModel(next);
      else chat.refresh();
    }
  }

  private async readKeys(): Promise<void> {
    const status = await this.options.keys.status();
    this.keyed = new Set(status.map((entry) => entry.providerID));
    this.remembered = new Set(status.filter((entry) => entry.remembered).map((entry) => entry.providerID));
  }

  private rememberedModel(): ModelRef | undefined {
    const value = this.options.settings?.getItem(MODEL_SETTING);
    const slash = value?.indexOf("/") ?? -1;
    return value && slash > 0 ? { providerID: value.slice(0, slash), modelID: value.slice(slash + 1) } : undefined;
  }

  private remember(model: ModelRef): void {
    try {
      this.options.settings?.setItem(MODEL_SETTING, `${model.providerID}/${model.modelID}`);
    } catch {
      // Not remembered: the next session starts with the default.
    }
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
