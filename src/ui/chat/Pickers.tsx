/** The model picker (grouped by provider, models without a key marked) and the primary agent picker. */
import { For, Show } from "solid-js";
import type { AgentChoice, ModelChoice } from "../../session/chat/chat-view.js";
import type { ModelRef } from "../../session/record/message.js";

const keyOf = (ref: ModelRef) => `${ref.providerID}/${ref.modelID}`;

/** Models by provider, in the order the providers first appear. */
function groupByProvider(models: readonly ModelChoice[]): { providerID: string; models: ModelChoice[] }[] {
  const groups = new Map<string, ModelChoice[]>();
  for (const model of models) {
    const group = groups.get(model.providerID) ?? [];
    group.push(model);
    groups.set(model.providerID, group);
  }
  return [...groups].map(([providerID, grouped]) => ({ providerID, models: grouped }));
}

export function ModelPicker(props: { models: readonly ModelChoice[]; current: ModelRef | undefined; onPick: (model: ModelRef) => void }) {
  const pick = (value: string) => {
    // Model ids may hold a slash themselves (openrouter's "anthropic/claude-…"): the provider is up to the first.
    const model = props.models.find((choice) => keyOf(choice) === value);
    if (model) props.onPick({ providerID: model.providerID, modelID: model.modelID });
  };
  return (
    <label class="chat-picker">
      <span class="visually-hidden">Model</span>
      <select
        data-testid="model-picker"
        aria-label="Model"
        onChange={(event) => pick(event.currentTarget.value)}
        disabled={props.models.length === 0}
      >
        <Show when={!props.current}>
          <option value="" disabled selected>
            {props.models.length === 0 ? "No models" : "Pick a model"}
          </option>
        </Show>
        <For each={groupByProvider(props.models)}>
          {(group) => (
            <optgroup label={group.providerID}>
              <For each={group.models}>
                {(model) => (
                  <option
                    value={keyOf(model)}
                    selected={props.current !== undefined && keyOf(props.current) === keyOf(model)}
                    data-ready={model.ready ? "true" : "false"}
                  >
                    {model.name}
                    {model.ready ? "" : " (no key)"}
                    {model.attachment ? " · images" : ""}
                  </option>
                )}
              </For>
            </optgroup>
          )}
        </For>
      </select>
    </label>
  );
}

export function AgentPicker(props: { agents: readonly AgentChoice[]; current: string; onPick: (name: string) => void }) {
  return (
    <label class="chat-picker">
      <span class="visually-hidden">Agent</span>
      <select
        data-testid="agent-picker"
        aria-label="Agent (Tab in the message box switches)"
        title="Tab in the message box switches to the next agent"
        aria-keyshortcuts="Tab"
        onChange={(event) => props.onPick(event.currentTarget.value)}
      >
        <For each={props.agents}>
          {(agent) => (
            <option value={agent.name} title={agent.description} selected={agent.name === props.current}>
              {agent.name}
            </option>
          )}
        </For>
      </select>
    </label>
  );
}
