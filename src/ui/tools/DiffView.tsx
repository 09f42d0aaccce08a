import { For } from "solid-js";

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-file";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return "diff-ctx";
}

/** A unified diff, one text node per line, coloured by its first character. */
export function DiffView(props: { diff: string; label?: string }) {
  const lines = () => props.diff.replace(/\n$/, "").split("\n");
  return (
    <pre class="diff" data-testid="diff" aria-label={props.label ?? "Diff"} tabIndex={0}>
      <For each={lines()}>{(line) => <span class={lineClass(line)}>{line + "\n"}</span>}</For>
    </pre>
  );
}
