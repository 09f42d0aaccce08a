import { createMemo, createSignal, For, onMount, Show } from "solid-js";
import type { ToolEntry } from "../../page/page-tools.js";
import { keepFocusInside } from "./dialog-focus.js";
import { argsFrom, fieldsOf, validate, type Field, type FormValues } from "./schema-form.js";

/**
 * Ctrl+K: pick a tool (Escape closes it, handled by the pane) (type to filter, arrows and Enter), fill its form, Enter runs. Errors from the
 * tool's own schema show beside their fields before anything runs.
 */
export function ToolPalette(props: {
  tools: ToolEntry[];
  onRun: (tool: string, args: Record<string, unknown>) => void;
  onClose: () => void;
}) {
  const [filter, setFilter] = createSignal("");
  const [active, setActive] = createSignal(0);
  const [chosen, setChosen] = createSignal<ToolEntry>();
  const matching = createMemo(() => props.tools.filter((tool) => tool.id.includes(filter().trim().toLowerCase())));
  let filterInput: HTMLInputElement | undefined;
  onMount(() => filterInput?.focus());

  const choose = (tool: ToolEntry | undefined) => {
    if (tool) setChosen(tool);
  };
  const onFilterKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((i) => Math.min(i + 1, matching().length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(matching()[active()]);
    }
  };

  return (
    <div class="palette-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="palette" role="dialog" aria-modal="true" aria-label="Tool palette" data-testid="tool-palette" onKeyDown={keepFocusInside}>
        <Show
          when={chosen()}
          fallback={
            <>
              <input
                ref={filterInput}
                type="text"
                class="palette-filter"
                placeholder="Run a tool… (type to filter)"
                aria-label="Filter tools"
                role="combobox"
                aria-expanded="true"
                aria-controls="palette-tools"
                aria-activedescendant={matching()[active()] ? `palette-tool-${matching()[active()]!.id}` : undefined}
                value={filter()}
                onInput={(e) => {
                  setFilter(e.currentTarget.value);
                  setActive(0);
                }}
                onKeyDown={onFilterKey}
              />
              <ul class="palette-list" role="listbox" aria-label="Tools" id="palette-tools">
                <For each={matching()} fallback={<li class="palette-empty">No tool matches.</li>}>
                  {(tool, index) => (
                    <li
                      role="option"
                      id={`palette-tool-${tool.id}`}
                      aria-selected={index() === active()}
                      class="palette-item"
                      classList={{ active: index() === active() }}
                      onClick={() => choose(tool)}
                      onMouseMove={(event) => {
                        // Only a pointer that moves picks: a list redrawn under a resting pointer (typing
                        // filters it, a banner shifts it) must not take the keyboard's choice away.
                        if (event.movementX !== 0 || event.movementY !== 0) setActive(index());
                      }}
                    >
                      <span class="palette-id">{tool.id}</span>
                      <span class="palette-desc">{tool.description.split("\n")[0]}</span>
                    </li>
                  )}
                </For>
              </ul>
            </>
          }
        >
          {(tool) => (
            <ToolForm
              tool={tool()}
              onBack={() => {
                setChosen(undefined);
                filterInput?.focus();
              }}
              onRun={(args) => props.onRun(tool().id, args)}
            />
          )}
        </Show>
      </div>
    </div>
  );
}

function ToolForm(props: { tool: ToolEntry; onBack: () => void; onRun: (args: Record<string, unknown>) => void }) {
  const fields = fieldsOf(props.tool.parameters);
  const [values, setValues] = createSignal<FormValues>({});
  const [errors, setErrors] = createSignal<Record<string, string>>({});
  const set = (name: string, value: string | boolean) => setValues((all) => ({ ...all, [name]: value }));
  let form: HTMLFormElement | undefined;
  onMount(() => (form?.querySelector("input, textarea, select") as HTMLElement | null)?.focus());

  const submit = (event?: Event) => {
    event?.preventDefault();
    const read = argsFrom(fields, values());
    const found = { ...validate(props.tool.parameters, read.args), ...read.errors };
    setErrors(found);
    if (Object.keys(found).length === 0) props.onRun(read.args);
  };
  // Enter runs from any field; Shift+Enter (or Ctrl+Enter) is a new line in a text area.
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== "Enter" || event.isComposing) return;
    const inArea = (event.target as HTMLElement).tagName === "TEXTAREA";
    if (inArea && event.shiftKey) return;
    event.preventDefault();
    submit();
  };

  const control = (field: Field) => {
    const id = `tool-field-${field.name}`;
    const common = {
      id,
      name: field.name,
      "aria-invalid": errors()[field.name] ? true : undefined,
      "aria-describedby": `${id}-help`,
    } as const;
    switch (field.kind) {
      case "boolean":
        return (
          <input
            type="checkbox"
            {...common}
            checked={values()[field.name] === true}
            onChange={(e) => set(field.name, e.currentTarget.checked)}
          />
        );
      case "enum":
        return (
          <select {...common} value={String(values()[field.name] ?? "")} onChange={(e) => set(field.name, e.currentTarget.value)}>
            <option value="">{field.required ? "(choose)" : "(default)"}</option>
            <For each={field.options}>{(option) => <option value={option}>{option}</option>}</For>
          </select>
        );
      case "number":
        return (
          <input
            type="text"
            inputMode="decimal"
            {...common}
            value={String(values()[field.name] ?? "")}
            onInput={(e) => set(field.name, e.currentTarget.value)}
          />
        );
      case "text":
        return (
          <input
            type="text"
            {...common}
            value={String(values()[field.name] ?? "")}
            onInput={(e) => set(field.name, e.currentTarget.value)}
          />
        );
      default:
        return (
          <textarea
            {...common}
            rows={field.kind === "json" || field.kind === "lines" ? 3 : 2}
            placeholder={field.kind === "lines" ? "one per line" : field.kind === "json" ? "JSON" : ""}
            value={String(values()[field.name] ?? "")}
            onInput={(e) => set(field.name, e.currentTarget.value)}
          />
        );
    }
  };

  return (
    <form class="tool-form" ref={form} onSubmit={submit} onKeyDown={onKey} aria-label={`Run ${props.tool.id}`} data-testid="tool-form">
      <header class="tool-form-head">
        <button type="button" class="button" onClick={() => props.onBack()}>
          ← Tools
        </button>
        <strong>{props.tool.id}</strong>
      </header>
      <p class="tool-form-desc">{props.tool.description.split("\n")[0]}</p>
      <For each={fields}>
        {(field) => (
          <div class="tool-field" classList={{ invalid: Boolean(errors()[field.name]) }}>
            <label for={`tool-field-${field.name}`}>
              {field.name}
              <Show when={field.required}>
                <span class="required" aria-label="required">
                  {" *"}
                </span>
              </Show>
            </label>
            {control(field)}
            <small id={`tool-field-${field.name}-help`} class="field-help">
              {field.description.split("\n")[0]}
            </small>
            <Show when={errors()[field.name]}>
              <small class="field-error" role="alert" data-testid={`field-error-${field.name}`}>
                {errors()[field.name]}
              </small>
            </Show>
          </div>
        )}
      </For>
      <Show when={errors()[""]}>
        <p class="field-error" role="alert">
          {errors()[""]}
        </p>
      </Show>
      <div class="tool-form-actions">
        <button type="submit" class="button primary">
          Run (Enter)
        </button>
      </div>
    </form>
  );
}
