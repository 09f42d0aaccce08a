import { createEffect, createMemo, createSignal, For, Match, onCleanup, Switch } from "solid-js";
import { diffForPeople } from "./card-formats.js";
import type { SideCell, SideRow } from "./diff-rows.js";

export type DiffMode = "unified" | "side-by-side";

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-file";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return "diff-ctx";
}

function Cells(props: { cell: SideCell | undefined; side: "old" | "new" }) {
  return (
    <>
      <td class="no">{props.cell ? String(props.cell.no) : ""}</td>
      <td class={`text ${props.side} ${props.cell?.kind ?? "empty"}`}>{props.cell?.text ?? ""}</td>
    </>
  );
}

function Row(props: { row: SideRow }) {
  return (
    <Switch>
      <Match when={props.row.type === "file" && props.row}>
        {(file) => (
          <tr class="file">
            <td class="no" />
            <td class="text old">{file().old}</td>
            <td class="no" />
            <td class="text new">{file().new}</td>
          </tr>
        )}
      </Match>
      <Match when={props.row.type === "hunk" && props.row}>
        {(hunk) => (
          <tr class="hunk">
            <td colSpan={4}>{hunk().header}</td>
          </tr>
        )}
      </Match>
      <Match when={props.row.type === "line" && props.row}>
        {(line) => (
          <tr class="line" data-testid="diff-row">
            <Cells cell={line().left} side="old" />
            <Cells cell={line().right} side="new" />
          </tr>
        )}
      </Match>
    </Switch>
  );
}

/**
 * A diff, unified (one text node per line, coloured by its first character) or side by side (old left,
 * new right, changed lines facing each other). Either way every piece of the files is a text node.
 */
export function DiffView(props: { diff: string; label?: string; mode?: DiffMode }) {
  const [mode, setMode] = createSignal<DiffMode>(props.mode ?? "unified");
  // Index: and ===== lines are for patch tools; the --- and +++ lines already name the file.
  const lines = createMemo(() => diffForPeople(props.diff).replace(/\n$/, "").split("\n"));
  const [rows, setRows] = createSignal<SideRow[]>();
  // The diff parser loads when first asked for, not with the page (a signal, not a resource, so that no
  // Suspense boundary above ever hides the pane while it loads).
  createEffect(() => {
    if (mode() !== "side-by-side") return;
    const diff = props.diff;
    let current = true;
    void import("./diff-rows.js").then((module) => current && setRows(module.sideBySideRows(diff)));
    onCleanup(() => (current = false));
  });
  const label = () => props.label ?? "Diff";
  return (
    <div class="diff-box" data-testid="diff-box" data-mode={mode()}>
      <div class="diff-modes" role="group" aria-label={`${label()}: view`}>
        <button
          type="button"
          class="button"
          aria-pressed={mode() === "unified"}
          onClick={() => setMode("unified")}
          data-testid="diff-unified"
        >
          Unified
        </button>
        <button
          type="button"
          class="button"
          aria-pressed={mode() === "side-by-side"}
          onClick={() => setMode("side-by-side")}
          data-testid="diff-side-by-side"
        >
          Side by side
        </button>
      </div>
      <Switch>
        <Match when={mode() === "unified"}>
          <pre class="diff" data-testid="diff" aria-label={label()} tabIndex={0}>
            <For each={lines()}>{(line) => <span class={lineClass(line)}>{line + "\n"}</span>}</For>
          </pre>
        </Match>
        <Match when={mode() === "side-by-side"}>
          <div class="diff-sbs" data-testid="diff-sbs" tabIndex={0} role="region" aria-label={`${label()}, side by side`}>
            <Switch>
              <Match when={rows() === undefined}>
                <p class="tools-note">Preparing the side-by-side view…</p>
              </Match>
              <Match when={rows()?.length === 0}>
                <p class="tools-note">This diff has no hunks to show side by side.</p>
              </Match>
              <Match when={rows()}>
                {(all) => (
                  <table>
                    <thead class="visually-hidden">
                      <tr>
                        <th scope="col">Old line</th>
                        <th scope="col">Old text</th>
                        <th scope="col">New line</th>
                        <th scope="col">New text</th>
                      </tr>
                    </thead>
                    <tbody>
                      <For each={all()}>{(row) => <Row row={row} />}</For>
                    </tbody>
                  </table>
                )}
              </Match>
            </Switch>
          </div>
        </Match>
      </Switch>
    </div>
  );
}
