/**
 * Where the embedded shell's limits come from, strongest first: `?limits=off` in the address (no limits),
 * the workspace's opencode.json under `"workbench": { "shell": { ... } }`, this browser's Settings, and
 * the defaults (src/runtime/embedded/shell-limits.ts). The result is handed to the runtime whenever one of
 * them changes; the command then running keeps the limits it started with.
 */
import { parse, type ParseError } from "jsonc-parser";
import { join } from "pathe";
import { z } from "zod";
import type { ShellLimits } from "../runtime/embedded/shell-protocol.js";
import { DEFAULT_SHELL_LIMITS, SHELL_LIMIT_NAMES, type ShellLimitName } from "../runtime/embedded/shell-limits.js";
import type { Runtime } from "../runtime/types.js";

// The page names the limits as the runtime does (the UI may not import a backend itself).
export { DEFAULT_SHELL_LIMITS, SHELL_LIMIT_LABELS, SHELL_LIMIT_NAMES, type ShellLimitName } from "../runtime/embedded/shell-limits.js";

const LIMIT_ERROR = "must be a whole number above 0, or null for no limit (then only the timeout and Stop end a runaway)";
const limitValue = z.union([z.number().int({ error: LIMIT_ERROR }).positive({ error: LIMIT_ERROR }), z.null()], { error: LIMIT_ERROR });

/** `workbench.shell` in opencode.json, and what Settings saves: the one schema of both. */
export const ShellLimitsSchema = z.strictObject(
  {
    maxLoopIterations: limitValue.optional(),
    maxCommandCount: limitValue.optional(),
    maxCallDepth: limitValue.optional(),
  },
  { error: `must be an object with any of ${SHELL_LIMIT_NAMES.join(", ")}` },
);

export type ShellLimitsConfig = z.infer<typeof ShellLimitsSchema>;

export type LimitSource = "address" | "opencode.json" | "settings" | "default";

export interface LimitsInForce {
  limits: ShellLimits;
  /** Where each limit in force came from. */
  sources: Record<ShellLimitName, LimitSource>;
  /** Why the workspace's `workbench.shell` was not used, when it was not. */
  configProblem?: string;
}

const SETTING = "workbench.shellLimits";
const CONFIG_NAMES = ["opencode.json", "opencode.jsonc"];

/** This browser's limits from Settings; what cannot be read counts as not set. */
export function readLimitSettings(storage: Storage | undefined): ShellLimitsConfig {
  try {
    const parsed = ShellLimitsSchema.safeParse(JSON.parse(storage?.getItem(SETTING) ?? "{}"));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const settingsListeners = new Set<() => void>();

/** Saves this browser's limits (a key left out is the default) and tells every open control. */
export function saveLimitSettings(storage: Storage | undefined, limits: ShellLimitsConfig): void {
  const checked = ShellLimitsSchema.parse(limits);
  storage?.setItem(SETTING, JSON.stringify(checked));
  for (const listener of settingsListeners) listener();
}

/** The workspace's `workbench.shell`, or why it cannot be used. */
export async function readLimitConfig(runtime: Runtime): Promise<{ limits: ShellLimitsConfig; problem?: string }> {
  for (const name of CONFIG_NAMES) {
    const path = join(runtime.root, name);
    const bytes = await runtime.fs.readFile(path).catch(() => undefined);
    if (!bytes) continue;
    const errors: ParseError[] = [];
    const value = parse(new TextDecoder().decode(bytes), errors, { allowTrailingComma: true }) as unknown;
    if (errors.length > 0) return { limits: {}, problem: `${name} is not valid JSON, so its shell limits are not used` };
    const shell = (value as { workbench?: { shell?: unknown } } | null)?.workbench?.shell;
    if (shell === undefined) return { limits: {} };
    const parsed = ShellLimitsSchema.safeParse(shell);
    if (parsed.success) return { limits: parsed.data };
    const issue = parsed.error.issues[0]!;
    const at = ["workbench", "shell", ...issue.path.map(String)].join(".");
    return { limits: {}, problem: `${name}: ${at} ${issue.message}; its shell limits are not used until it is fixed` };
  }
  return { limits: {} };
}

/** The limits in force from the three sources, each limit from the strongest that sets it. */
export function combineLimits(options: {
  unlimited: boolean;
  config: ShellLimitsConfig;
  settings: ShellLimitsConfig;
}): Omit<LimitsInForce, "configProblem"> {
  const limits: ShellLimits = {};
  const sources = {} as Record<ShellLimitName, LimitSource>;
  for (const name of SHELL_LIMIT_NAMES) {
    if (options.unlimited) {
      limits[name] = null;
      sources[name] = "address";
    } else if (options.config[name] !== undefined) {
      limits[name] = options.config[name];
      sources[name] = "opencode.json";
    } else if (options.settings[name] !== undefined) {
      limits[name] = options.settings[name];
      sources[name] = "settings";
    } else {
      limits[name] = DEFAULT_SHELL_LIMITS[name];
      sources[name] = "default";
    }
  }
  return { limits, sources };
}

let pageControl: ShellLimitsControl | undefined;

/**
 * The limits of the workspace this page opened last (a page opens one), for Settings to show and change;
 * undefined before any is open.
 */
export function pageShellLimits(): ShellLimitsControl | undefined {
  return pageControl;
}

/**
 * Keeps a runtime's limits equal to the sources': read now, again whenever opencode.json changes or
 * Settings are saved. `onChange` listeners hear each new state (the Settings dialog shows it).
 */
export class ShellLimitsControl {
  private state: LimitsInForce;
  private readonly listeners = new Set<() => void>();
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly runtime: Runtime,
    private readonly apply: (limits: ShellLimits) => void,
    private readonly storage: Storage | undefined,
    private readonly unlimited: boolean,
  ) {
    this.state = combineLimits({ unlimited, config: {}, settings: readLimitSettings(storage) });
  }

  /** Reads the sources and starts following them; resolves once the first limits are applied. */
  async start(): Promise<void> {
    pageControl = this;
    const onSettings = () => void this.refresh();
    settingsListeners.add(onSettings);
    this.stops.push(() => settingsListeners.delete(onSettings));
    this.stops.push(
      this.runtime.onChange((paths) => {
        if (paths === "unknown" || paths.some((path) => CONFIG_NAMES.some((name) => path === join(this.runtime.root, name))))
          void this.refresh();
      }),
    );
    await this.refresh();
  }

  get inForce(): LimitsInForce {
    return this.state;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async refresh(): Promise<void> {
    const config = await readLimitConfig(this.runtime);
    const combined = combineLimits({ unlimited: this.unlimited, config: config.limits, settings: readLimitSettings(this.storage) });
    this.state = { ...combined, ...(config.problem ? { configProblem: config.problem } : {}) };
    this.apply(combined.limits);
    for (const listener of this.listeners) listener();
  }

  dispose(): void {
    for (const stop of this.stops.splice(0)) stop();
    if (pageControl === this) pageControl = undefined;
  }
}
