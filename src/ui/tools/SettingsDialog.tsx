import { createEffect, createResource, createSignal, For, Index, on, onMount, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import type { RuntimeStatus } from "../../workspace/workspace.js";
import { RuntimeSection } from "./RuntimeSection.js";
import { SaveStatus } from "./SaveStatus.js";
import type { PageTools } from "../../page/page-tools.js";
import type { ConfigRule } from "../../session/config/workspace-config.js";
import { v2Name } from "../../session/config/permissions-v2-file.js";
import type { Explanation, RuleLayer } from "../../tools/permission/evaluate.js";
import type { Action, RuleSource } from "../../tools/permission/types.js";
import { keepFocusInside } from "./dialog-focus.js";
import { ShellLimitsSection } from "./ShellLimitsSection.js";
import { SharedWorkspaces } from "./SharedWorkspaces.js";
import { TrustNotice } from "./TrustNotice.js";
import { pageShellLimits, type ShellLimitsControl } from "../../workspace/shell-limits.js";
import { WebSettings } from "./WebSettings.js";
import { errorMessage } from "../../base/error-message.js";

const ACTIONS: readonly Action[] = ["allow", "ask", "deny"];

const SOURCE_NAMES: Record<RuleSource, string> = {
  default: "Agent defaults (built in)",
  agent: "This agent's own rules (built in)",
  config: "Workspace config (opencode.json)",
  session: "This session",
  approval: "Session approvals (Always allow)",
};

/** The layers with each rule's place in the whole evaluation order, counted from 1. */
function numbered(layers: RuleLayer[]): Array<RuleLayer & { start: number }> {
  let next = 1;
  return layers.map((layer) => {
    const start = next;
    // Ignored rules are not in the evaluation order; they are numbered after it.
    next += layer.rules.length;
    return { ...layer, start };
  });
}

/**
 * Settings: the rules in force and where each came from, an editor for opencode.json's `permission`
 * section, "what would happen for this permission and pattern", and trusting the workspace's code.
 * Saving reopens the page's session (`onReopened`) so what is saved is what is in force. The pane
 * closes it on Escape.
 */
export function SettingsDialog(props: {
  page: PageTools;
  agent: string;
  onReopened: (page: PageTools) => void;
  /** Absent where Trust is never offered (an embed). */
  onTrust?: () => void;
  onUntrust: () => void;
  trusting: boolean;
  onClose: () => void;
  /** The embedded shell's limits; by default the page's workspace's (none in a view without one). */
  shellLimits?: ShellLimitsControl;
  /** The open workspace's name, where the list of workspaces from share links is shown (not in an embed). */
  sharedListFor?: string;
  /** The runtime serving the workspace, for the Runtime section (absent in a view without one). */
  runtime?: () => Runtime;
  runtimeStatus?: () => RuntimeStatus;
}) {
  let heading: HTMLHeadingElement | undefined;
  let trustHeading: HTMLHeadingElement | undefined;
  onMount(() => heading?.focus());
  // The trust buttons go away once pressed; the focus goes to the section, not back to the page.
  createEffect(
    on(
      () => props.page.trusted,
      (trusted, before) => before !== undefined && trusted !== before && trustHeading?.focus(),
    ),
  );

  return (
    <div class="palette-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        class="palette settings"
        role="dialog"
        aria-modal="true"
        aria-labelledby="settings-title"
        data-testid="settings"
        onKeyDown={keepFocusInside}
      >
        <header class="settings-head">
          <h2 id="settings-title" tabindex="-1" ref={heading}>
            Permission settings
          </h2>
          <button type="button" class="button" onClick={() => props.onClose()} aria-label="Close settings (Escape)">
            Close <kbd>Esc</kbd>
          </button>
        </header>
        <RulesInForce layers={numbered(props.page.rulesInForce())} agent={props.agent} />
        <ConfigEditor page={props.page} onReopened={props.onReopened} />
        <ExplainForm page={props.page} />
        <section class="settings-section" aria-labelledby="settings-trust">
          <h3 id="settings-trust" tabindex="-1" ref={trustHeading}>
            Workspace code
          </h3>
          <Show
            when={props.page.trusted}
            fallback={
              <Show when={props.page.untrustedFiles.length === 0}>
                <p class="settings-help">This workspace has no custom tools or plugins (.opencode/tool, tools, plugin, plugins).</p>
              </Show>
            }
          >
            <p class="settings-help" data-testid="trusted-state">
              This workspace is trusted: its custom tools and plugins run in a sandbox in this tab, apart from your keys.{" "}
              <button type="button" class="button" onClick={() => props.onUntrust()} disabled={props.trusting}>
                Stop trusting
              </button>
            </p>
          </Show>
          <TrustNotice page={props.page} onTrust={props.onTrust} trusting={props.trusting} />
        </section>
        <Show when={props.shellLimits ?? pageShellLimits()}>
          {(control) => <ShellLimitsSection control={control()} storage={browserStorage()} />}
        </Show>
        <Show when={props.runtime}>
          {(runtime) => <RuntimeSection runtime={runtime()} {...(props.runtimeStatus ? { status: props.runtimeStatus } : {})} />}
        </Show>
        <WebSettings configured={props.page.session.config.workbench?.fetchProxy} trusted={props.page.trusted} />
        <Show when={props.sharedListFor}>{(current) => <SharedWorkspaces current={current()} />}</Show>
      </div>
    </div>
  );
}

function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function layerName(source: RuleSource, index: number, agent: string): string {
  if (source === "agent") return `The ${agent} agent's own rules (built in)`;
  // The built-in rule that keeps saved tool output readable goes after the config, so no config can strand it.
  if (source === "default" && index > 0) return "Agent defaults, after the config (saved tool output stays readable)";
  return SOURCE_NAMES[source];
}

function RulesInForce(props: { layers: Array<RuleLayer & { start: number }>; agent: string }) {
  return (
    <section class="settings-section" aria-labelledby="settings-rules">
      <h3 id="settings-rules">Rules in force</h3>
      <p class="settings-help">
        Checked in this order, top to bottom. <strong>The last rule that matches decides</strong>, so a later group overrides an earlier
        one; when no rule matches, the answer is <em>ask</em>.
      </p>
      {/* Scrolls on its own, so it takes the focus: keyboard users can scroll it too. */}
      <div class="rule-layers" data-testid="rules-in-force" tabindex="0" role="region" aria-label="Rules in force, in evaluation order">
        <For each={props.layers}>
          {(layer, index) => (
            <div
              class="rule-layer"
              data-source={layer.source}
              data-ignored={layer.ignored !== undefined ? "true" : undefined}
              data-testid="rule-layer"
            >
              <h4>
                {layer.ignored !== undefined
                  ? `This workspace's rules that would loosen protection: ${layer.ignored}`
                  : layerName(layer.source, index(), props.agent)}
              </h4>
              <Show when={layer.ignored !== undefined}>
                <p class="settings-help" data-testid="ignored-rules-help">
                  Not in force. A rule from the workspace's own opencode.json (or its .opencode agents) is held back when some call it
                  matches would get a looser answer than the built-in rules give: allow where they ask or deny, or ask where they deny.
                  Rules that make things stricter always apply. Trust the workspace (below) to apply these too.
                </p>
              </Show>
              <ol start={layer.start} class="rule-list">
                <For each={layer.rules}>
                  {(rule) => (
                    <li class="rule-row">
                      <code class="rule-permission" title={rule.written === "v2" ? "a rule of the V2 permissions list" : undefined}>
                        {rule.written === "v2" ? v2Name(rule.permission) : rule.permission}
                      </code>
                      <code class="rule-pattern">{rule.pattern}</code>
                      <span class={`rule-action action-${rule.action}`}>{rule.action}</span>
                    </li>
                  )}
                </For>
              </ol>
            </div>
          )}
        </For>
      </div>
    </section>
  );
}

function ConfigEditor(props: { page: PageTools; onReopened: (page: PageTools) => void }) {
  // Errors come back as values: reading a failed resource would throw inside the dialog.
  const [loaded] = createResource(
    () => props.page,
    (page) =>
      page.configRules().then(
        (found) => ({ ...found, error: undefined }),
        (error: unknown) => ({
          path: undefined,
          rules: [] as ConfigRule[],
          shape: "v1" as const,
          error: errorMessage(error),
        }),
      ),
  );
  const [rows, setRows] = createSignal<ConfigRule[]>([]);
  const [edited, setEdited] = createSignal(false);
  const [status, setStatus] = createSignal<{ text: string; error?: boolean }>();
  const [saving, setSaving] = createSignal(false);
  let list: HTMLOListElement | undefined;
  const current = () => (edited() ? rows() : (loaded()?.rules ?? []));
  const v2 = () => loaded()?.shape === "v2";

  const change = (update: (all: ConfigRule[]) => ConfigRule[]) => {
    setRows(update(current().map((rule) => ({ ...rule }))));
    setEdited(true);
    setStatus(undefined);
  };
  const set = (index: number, patch: Partial<ConfigRule>) =>
    change((all) => all.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  const move = (index: number, by: number) =>
    change((all) => {
      const [rule] = all.splice(index, 1);
      all.splice(index + by, 0, rule!);
      return all;
    });
  const add = () => {
    change((all) => [...all, { permission: "", pattern: "*", action: "ask" }]);
    queueMicrotask(() => list?.querySelector<HTMLInputElement>("li:last-child input")?.focus());
  };
  const save = async (event: Event) => {
    event.preventDefault();
    // Not disabled while saving: a disabled button would drop the keyboard focus out of the dialog.
    if (saving()) return;
    setSaving(true);
    try {
      const { path, page } = await props.page.saveRules(current());
      setEdited(false);
      setStatus({ text: `Saved to ${path}. The new rules are in force for the next call.` });
      props.onReopened(page);
    } catch (error) {
      setStatus({ text: errorMessage(error), error: true });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section class="settings-section" aria-labelledby="settings-config">
      <h3 id="settings-config">Edit the workspace config's rules</h3>
      <Show
        when={v2()}
        fallback={
          <p class="settings-help">
            The <code>permission</code> section of <code>{loaded()?.path ?? "opencode.json"}</code>, in order (the file keeps a permission's
            patterns together, so saving groups them under the first one). Everything else in the file is left as it is.
          </p>
        }
      >
        <p class="settings-help" data-testid="config-shape-v2">
          The <code>permissions</code> list of <code>{loaded()?.path ?? "opencode.json"}</code> (OpenCode V2's shape: action, resource,
          effect), in order: the last matching rule wins. Everything else in the file is left as it is.
        </p>
      </Show>
      <Show when={loaded()?.error}>
        <p class="settings-error" role="alert" data-testid="config-error">
          {loaded()?.error}
        </p>
      </Show>
      <form class="config-editor" onSubmit={(event) => void save(event)} aria-label="Workspace config rules" data-testid="config-editor">
        <ol class="config-rules" ref={list}>
          <Index each={current()} fallback={<li class="settings-help">No rules in opencode.json yet.</li>}>
            {(rule, index) => (
              <li class="config-rule" data-testid="config-rule">
                <input
                  type="text"
                  value={rule().permission}
                  placeholder={v2() ? "action (shell, edit, read, *)" : "permission (bash, edit, read, *)"}
                  aria-label={`${v2() ? "Action" : "Permission"} of rule ${index + 1}`}
                  onInput={(e) => set(index, { permission: e.currentTarget.value })}
                />
                <input
                  type="text"
                  value={rule().pattern}
                  placeholder={v2() ? "resource (* for all)" : "pattern (* for all)"}
                  aria-label={`${v2() ? "Resource" : "Pattern"} of rule ${index + 1}`}
                  onInput={(e) => set(index, { pattern: e.currentTarget.value })}
                />
                <select
                  value={rule().action}
                  aria-label={`${v2() ? "Effect" : "Action"} of rule ${index + 1}`}
                  onChange={(e) => set(index, { action: e.currentTarget.value as Action })}
                >
                  <For each={ACTIONS}>{(action) => <option value={action}>{action}</option>}</For>
                </select>
                <button
                  type="button"
                  class="button"
                  aria-label={`Move rule ${index + 1} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="button"
                  aria-label={`Move rule ${index + 1} down`}
                  disabled={index === current().length - 1}
                  onClick={() => move(index, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="button danger"
                  aria-label={`Remove rule ${index + 1}`}
                  onClick={() => change((all) => all.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </li>
            )}
          </Index>
        </ol>
        <div class="config-actions">
          <button type="button" class="button" onClick={add} disabled={!loaded() && !edited()}>
            Add rule
          </button>
          <button type="submit" class="button primary" aria-busy={saving()} data-testid="save-rules">
            Save to opencode.json
          </button>
          <SaveStatus status={status()} testid="save-status" />
        </div>
      </form>
    </section>
  );
}

function ExplainForm(props: { page: PageTools }) {
  const [permission, setPermission] = createSignal("");
  const [pattern, setPattern] = createSignal("");
  const [answer, setAnswer] = createSignal<Explanation>();
  const [missing, setMissing] = createSignal(false);
  const ask = (event: Event) => {
    event.preventDefault();
    const missingInput = permission().trim() === "" || pattern() === "";
    setMissing(missingInput);
    setAnswer(missingInput ? undefined : props.page.explain(permission(), pattern()));
  };
  return (
    <section class="settings-section" aria-labelledby="settings-explain">
      <h3 id="settings-explain">What would happen?</h3>
      <form class="explain-form" onSubmit={ask} data-testid="explain-form">
        <label>
          Permission
          <input type="text" value={permission()} placeholder="bash" onInput={(e) => setPermission(e.currentTarget.value)} />
        </label>
        <label>
          Pattern
          <input type="text" value={pattern()} placeholder="rm -rf build" onInput={(e) => setPattern(e.currentTarget.value)} />
        </label>
        <button type="submit" class="button">
          Explain
        </button>
      </form>
      <Show when={missing()}>
        <p class="settings-error" role="alert">
          Fill in both: a permission (bash, edit, read, …) and a pattern (a command, a path).
        </p>
      </Show>
      <Show when={answer()?.known}>
        {(known) => (
          <div class="explain-result explain-unknown" role="status" data-testid="explain-result" data-action="unknown">
            <p>
              <span class="rule-action action-unknown">unknown</span> <strong>{JSON.stringify(permission().trim())}</strong> is not a
              permission anything asks for, so a rule for it never takes effect. Check the spelling; the known permissions are:
            </p>
            <ul class="known-permissions" data-testid="known-permissions">
              <For each={known()}>
                {(name) => (
                  <li>
                    <button type="button" class="linklike" onClick={() => setPermission(name)} title={`Explain ${name} instead`}>
                      <code>{name}</code>
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </div>
        )}
      </Show>
      <Show when={answer() && !answer()!.known ? answer() : undefined}>
        {(result) => (
          <p
            class="explain-result"
            role="status"
            data-testid="explain-result"
            data-action={result().action}
            data-source={result().source ?? "none"}
          >
            <span class={`rule-action action-${result().action}`}>{result().action}</span>
            <span>{result().sentence}</span>
            <Show when={result().source}>
              <span class="settings-help">— from {SOURCE_NAMES[result().source!]}</span>
            </Show>
          </p>
        )}
      </Show>
    </section>
  );
}
