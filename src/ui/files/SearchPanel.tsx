import { createSignal, For, onCleanup, Show } from "solid-js";
import type { Runtime } from "../../runtime/types.js";
import { findInFilesQuery } from "../../workspace/find-in-files.js";
import { errorMessage } from "../../base/error-message.js";

/** Matching lines shown at most; the count goes on past it. */
const SHOWN = 200;
/** A line is cut to this many characters around its first match. */
const LINE_CHARS = 240;

interface Hit {
  key: string;
  /** Absolute, for opening. */
  path: string;
  file: string;
  lineNumber: number;
  text: HitText;
  /** The first match on the line, as UTF-16 offsets into the whole line (not the cut text). */
  from: number;
  to: number;
}

type Outcome =
  | { kind: "idle" }
  | { kind: "running"; files: number; lines: number }
  | { kind: "done"; files: number; lines: number; ms: number; warnings: number }
  | { kind: "stopped"; files: number; lines: number }
  | { kind: "error"; message: string };

/** A line as the list shows it: the text before the first match, the match (highlighted), and after. */
interface HitText {
  before: string;
  match: string;
  after: string;
}

function around(line: string, start: number, end: number): HitText {
  // A little context before the match, so it shows even where the sidebar is narrow (a phone).
  const from = line.length <= LINE_CHARS ? 0 : Math.max(0, Math.min(start - 24, line.length - LINE_CHARS));
  const to = Math.min(line.length, from + LINE_CHARS);
  const matchStart = Math.min(Math.max(start, from), to);
  const matchEnd = Math.min(Math.max(end, matchStart), to);
  return {
    before: `${from > 0 ? "…" : ""}${line.slice(from, matchStart)}`,
    match: line.slice(matchStart, matchEnd),
    after: `${line.slice(matchEnd, to)}${to < line.length ? "…" : ""}`,
  };
}

/**
 * Find in files: ripgrep's search over the workspace through the runtime (in a worker beside the
 * files on embedded, so the page stays responsive however big the workspace). Everything shown is
 * text: a file name or a line with markup in it is never made into elements.
 */
export function SearchPanel(props: {
  runtime: () => Runtime;
  onOpen: (path: string, at: { line: number; from: number; to: number }) => void;
}) {
  const [pattern, setPattern] = createSignal("");
  const [glob, setGlob] = createSignal("");
  const [ignoreCase, setIgnoreCase] = createSignal(false);
  const [hits, setHits] = createSignal<Hit[]>([]);
  const [outcome, setOutcome] = createSignal<Outcome>({ kind: "idle" });
  let controller: AbortController | undefined;
  onCleanup(() => controller?.abort());

  async function run(event: Event) {
    event.preventDefault();
    controller?.abort();
    if (pattern() === "") return;
    const current = new AbortController();
    controller = current;
    const runtime = props.runtime();
    const found: Hit[] = [];
    let files = 0;
    let lines = 0;
    let warnings = 0;
    const started = performance.now();
    setHits([]);
    setOutcome({ kind: "running", files, lines });
    try {
      const results = runtime.search.search(
        findInFilesQuery({ root: runtime.root, pattern: pattern(), caseInsensitive: ignoreCase(), glob: glob() }),
        { signal: current.signal, onMessage: () => void warnings++ },
      );
      for await (const file of results) {
        files++;
        lines += file.matches.length;
        for (const match of file.matches) {
          if (found.length >= SHOWN) break;
          const first = match.matches[0];
          found.push({
            key: `${file.path}:${match.lineNumber}`,
            path: file.path,
            file: file.displayPath,
            lineNumber: match.lineNumber,
            text: around(match.line, first?.start ?? 0, first?.end ?? 0),
            from: first?.start ?? 0,
            to: first?.end ?? 0,
          });
        }
        // Redraw now and then, not for every file.
        if (files % 50 === 1) {
          setHits([...found]);
          setOutcome({ kind: "running", files, lines });
        }
      }
      setHits(found);
      setOutcome({ kind: "done", files, lines, ms: Math.round(performance.now() - started), warnings });
    } catch (error) {
      setHits(found);
      if (current.signal.aborted) setOutcome({ kind: "stopped", files, lines });
      else setOutcome({ kind: "error", message: errorMessage(error) });
    } finally {
      if (controller === current) controller = undefined;
    }
  }

  const summary = () => {
    const o = outcome();
    switch (o.kind) {
      case "idle":
        return "";
      case "running":
        return `Searching… ${o.lines} lines in ${o.files} files so far`;
      case "stopped":
        return `Stopped: ${o.lines} lines in ${o.files} files`;
      case "error":
        return "";
      case "done": {
        const shown = o.lines > SHOWN ? ` (showing the first ${SHOWN})` : "";
        const warned = o.warnings > 0 ? `; ${o.warnings} paths could not be read` : "";
        return o.lines === 0 ? `No matches (${o.ms} ms)` : `${o.lines} lines in ${o.files} files${shown}, ${o.ms} ms${warned}`;
      }
    }
  };

  return (
    <section class="search-panel" aria-label="Find in files">
      <form class="search-form" onSubmit={run} role="search">
        <input
          type="search"
          placeholder="Find in files (regex)"
          aria-label="Pattern (ripgrep regex)"
          value={pattern()}
          onInput={(e) => setPattern(e.currentTarget.value)}
        />
        <input
          type="text"
          placeholder="glob, e.g. *.ts"
          aria-label="Only files matching"
          title="ripgrep's -g; node_modules is left out unless the glob names it (node_modules/**)"
          value={glob()}
          onInput={(e) => setGlob(e.currentTarget.value)}
        />
        <label class="search-option">
          <input type="checkbox" checked={ignoreCase()} onChange={(e) => setIgnoreCase(e.currentTarget.checked)} /> Ignore case
        </label>
        <Show
          when={outcome().kind === "running"}
          fallback={
            <button type="submit" class="button">
              Find
            </button>
          }
        >
          <button type="button" class="button" onClick={() => controller?.abort()}>
            Stop
          </button>
        </Show>
      </form>
      <p class="search-summary" role="status" data-testid="search-summary">
        {summary()}
      </p>
      <Show when={outcome().kind === "error"}>
        <p class="search-error" role="alert" data-testid="search-error">
          {(outcome() as Extract<Outcome, { kind: "error" }>).message}
        </p>
      </Show>
      <ol class="search-hits" data-testid="search-hits">
        <For each={hits()}>
          {(hit) => (
            <li>
              <button
                type="button"
                class="search-hit"
                title={`Open ${hit.file} at line ${hit.lineNumber}`}
                data-testid="search-hit"
                onClick={() => props.onOpen(hit.path, { line: hit.lineNumber, from: hit.from, to: hit.to })}
              >
                <span class="hit-where">
                  {hit.file}:{hit.lineNumber}
                </span>
                <span class="hit-text">
                  {hit.text.before}
                  <mark data-testid="search-hit-match">{hit.text.match}</mark>
                  {hit.text.after}
                </span>
              </button>
            </li>
          )}
        </For>
      </ol>
    </section>
  );
}
