/**
 * The questions a call waits on, shown where it waits: each with its options (radio buttons, or check
 * boxes where several may be chosen) and a box for the person's own answer unless the question forbids
 * one. Send answers; Dismiss fails the call and stops the run.
 */
import { createSignal, For, Index, Show } from "solid-js";
import type { QuestionRequest } from "../../session/host/questions.js";

export function QuestionForm(props: { request: QuestionRequest; onAnswer: (answers: string[][]) => void; onDismiss: () => void }) {
  const [picked, setPicked] = createSignal<string[][]>(props.request.questions.map(() => []));
  const [typed, setTyped] = createSignal<string[]>(props.request.questions.map(() => ""));
  const [problem, setProblem] = createSignal("");
  const toggle = (index: number, label: string, multiple: boolean, on: boolean) =>
    setPicked((all) =>
      all.map((list, i) =>
        i !== index ? list : multiple ? (on ? [...list, label] : list.filter((one) => one !== label)) : on ? [label] : [],
      ),
    );
  const send = () => {
    const answers = props.request.questions.map((_, index) => {
      const own = typed()[index]!.trim();
      return own !== "" ? [...picked()[index]!.filter(() => props.request.questions[index]!.multiple === true), own] : picked()[index]!;
    });
    const missing = answers.findIndex((answer) => answer.length === 0);
    if (missing >= 0) {
      setProblem(`Answer "${props.request.questions[missing]!.header}" first, or dismiss the questions.`);
      return;
    }
    props.onAnswer(answers);
  };
  return (
    <form
      class="question-form"
      role="group"
      aria-label="Questions from the agent"
      data-testid="question-form"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <Index each={props.request.questions}>
        {(question, index) => {
          const name = `${props.request.id}-${index}`;
          return (
            <fieldset class="question" data-testid="question">
              <legend>
                <span class="question-header">{question().header}</span> {question().question}
              </legend>
              <For each={question().options}>
                {(option) => (
                  <label class="question-option">
                    <input
                      type={question().multiple ? "checkbox" : "radio"}
                      name={name}
                      value={option.label}
                      checked={picked()[index]!.includes(option.label)}
                      onChange={(event) => toggle(index, option.label, question().multiple === true, event.currentTarget.checked)}
                    />
                    <span class="question-label">{option.label}</span>
                    <span class="question-description">{option.description}</span>
                  </label>
                )}
              </For>
              <Show when={question().custom !== false}>
                <input
                  type="text"
                  class="question-own"
                  placeholder="Or type your own answer"
                  aria-label={`Your own answer to: ${question().question}`}
                  data-testid="question-own"
                  value={typed()[index]}
                  onInput={(event) => {
                    const value = event.currentTarget.value;
                    setTyped((all) => all.map((one, i) => (i === index ? value : one)));
                  }}
                />
              </Show>
            </fieldset>
          );
        }}
      </Index>
      <Show when={problem()}>
        <p class="call-error" role="alert">
          {problem()}
        </p>
      </Show>
      <div class="prompt-actions">
        <button type="submit" class="button primary" data-testid="question-send">
          Send answers
        </button>
        <button type="button" class="button" data-testid="question-dismiss" onClick={() => props.onDismiss()}>
          Dismiss
        </button>
      </div>
    </form>
  );
}
