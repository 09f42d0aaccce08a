import { createSignal, For, onCleanup, Show } from "solid-js";
import { SaveStatus } from "./SaveStatus.js";
import {
  DEFAULT_SHELL_LIMITS,
  readLimitSettings,
  saveLimitSettings,
  SHELL_LIMIT_LABELS,
  SHELL_LIMIT_NAMES,
  type LimitSource,
  type ShellLimitName,
  type ShellLimitsConfig,
  type ShellLimitsControl,
} from "../../workspace/shell-limits.js";

const HELP: Record<ShellLimitName, string> = {
  maxLoopIterations: "iterations of one for, while or until loop (seq counts too, up to 1,000,000 lines)",
  maxCommandCount: "commands one command line may run in all",
  maxCallDepth: "how deep shell functions may call themselves",
};

const SOURCE_TEXT: Record<LimitSource, string> = {
  address: "lifted by ?limits=off in the address",
  "opencode.json": "set by the workspace's opencode.json, which wins over this setting",
  settings: "set here",
  default: "the default",
};

const shown = (value: number | null | undefined) => (value === null ? "no limit" : (value ?? 0).toLocaleString("en-US"));

/**
 * Settings > Shell limits: this browser's limits for the embedded shell, and which limit is in force from
 * where (opencode.json's `workbench.shell` wins, `?limits=off` lifts all). Applies to the next command.
 */
export function ShellLimitsSection(props: { control: ShellLimitsControl; storage: Storage | undefined }) {
  const [inForce, setInForce] = createSignal(props.control.inForce, { equals: false });
  onCleanup(props.control.onChange(() => setInForce(props.control.inForce)));
  const saved = readLimitSettings(props.storage);
  const [drafts, setDrafts] = createSignal<Record<ShellLimitName, string>>(
    Object.fromEntries(
      SHELL_LIMIT_NAMES.map((name) => [name, saved[name] === undefined ? "" : saved[name] === null ? "none" : String(saved[name])]),
    ) as Record<ShellLimitName, string>,
  );
  const [status, setStatus] = createSignal<{ text: string; error?: boolean }>();

  const save = (event: Event) => {
    event.preventDefault();
    const limits: ShellLimitsConfig = {};
    for (const name of SHELL_LIMIT_NAMES) {
      const text = drafts()
        [name].trim()
        .replace(/[,_\s]/g, "");
      if (text === "") continue;
      if (/^(none|off|unlimited)$/i.test(text)) {
        limits[name] = null;
        continue;
      }
      const value = Number(text);
      if (!Number.isSafeInteger(value) || value <= 0) {
        setStatus({
          text: `${SHELL_LIMIT_LABELS[name]}: "${drafts()[name]}" is not a whole number above 0. Leave it empty for the default, or write "none" for no limit.`,
          error: true,
        });
        return;
      }
      limits[name] = value;
    }
    saveLimitSettings(props.storage, limits);
    setStatus({ text: "Saved in this browser. The next command runs with these limits." });
  };

  return (
    <section class="settings-section" aria-labelledby="settings-shell-limits" data-testid="shell-limits">
      <h3 id="settings-shell-limits">Shell limits</h3>
      <p class="settings-help">
        How far one command of the embedded shell may go before it is stopped. A runaway command is also ended by its timeout and by Stop,
        so these can be generous. Empty means the default; <code>none</code> means no limit. A workspace can set them in opencode.json as{" "}
        <code>{'"workbench": { "shell": { "maxLoopIterations": 20000000 } }'}</code>, which wins over these.
      </p>
      <Show when={inForce().configProblem}>
        <p class="settings-error" role="alert" data-testid="shell-limits-problem">
          {inForce().configProblem}
        </p>
      </Show>
      <form class="shell-limits" onSubmit={save} aria-label="Shell limits">
        <For each={SHELL_LIMIT_NAMES}>
          {(name) => (
            <div class="shell-limit" data-testid={`shell-limit-${name}`}>
              <label for={`shell-limit-${name}`}>{SHELL_LIMIT_LABELS[name]}</label>
              <input
                id={`shell-limit-${name}`}
                type="text"
                inputmode="numeric"
                value={drafts()[name]}
                placeholder={DEFAULT_SHELL_LIMITS[name].toLocaleString("en-US")}
                onInput={(e) => {
                  const value = e.currentTarget.value;
                  setDrafts((all) => ({ ...all, [name]: value }));
                  setStatus(undefined);
                }}
                aria-describedby={`shell-limit-${name}-help`}
              />
              <span class="settings-help" id={`shell-limit-${name}-help`}>
                {HELP[name]}. In force: <strong data-testid="limit-in-force">{shown(inForce().limits[name])}</strong> (
                {SOURCE_TEXT[inForce().sources[name]]}; <code>workbench.shell.{name}</code>)
              </span>
            </div>
          )}
        </For>
        <div class="config-actions">
          <button type="submit" class="button primary" data-testid="save-shell-limits">
            Save limits
          </button>
          <SaveStatus status={status()} testid="shell-limits-status" />
        </div>
      </form>
    </section>
  );
}
