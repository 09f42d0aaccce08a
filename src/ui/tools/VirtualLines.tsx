import { createVirtualizer } from "@tanstack/solid-virtual";
import { createEffect, For, on } from "solid-js";

/** Every row is one line tall (lines never wrap: they scroll sideways), so no row is ever measured. */
const LINE_HEIGHT_PX = 18;
/** Rows drawn beyond the visible ones, so a quick scroll does not show blank space. */
const OVERSCAN = 20;

/** Splits text into lines; the newline that ends the last line does not make an empty one. */
export function linesOf(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

/**
 * Lines of text in a scroll box that draws only the rows in view: a 10,000-line output costs a few dozen
 * elements. Each row is a text node. With `follow`, the box keeps to the last line as lines arrive, until
 * the user scrolls up; scrolling back to the bottom follows again.
 */
export function VirtualLines(props: { lines: string[]; label: string; follow?: boolean; testId?: string; class?: string }) {
  let scroller: HTMLDivElement | undefined;
  // Whether the view sits at the bottom: only then does new output move it.
  let atBottom = true;
  const virtualizer = createVirtualizer({
    get count() {
      return props.lines.length;
    },
    getScrollElement: () => scroller ?? null,
    estimateSize: () => LINE_HEIGHT_PX,
    overscan: OVERSCAN,
  });
  const onScroll = () => {
    if (!scroller) return;
    atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - LINE_HEIGHT_PX;
  };
  createEffect(
    on(
      () => props.lines.length,
      () => {
        if (!props.follow || !atBottom || !scroller) return;
        const box = scroller;
        // After the rows' new height is laid out.
        requestAnimationFrame(() => {
          box.scrollTop = box.scrollHeight;
        });
      },
    ),
  );
  return (
    <div
      class={`vlines ${props.class ?? ""}`}
      ref={scroller}
      onScroll={onScroll}
      tabIndex={0}
      role="log"
      aria-label={props.label}
      data-testid={props.testId}
      data-lines={props.lines.length}
    >
      <div class="vlines-space" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        <For each={virtualizer.getVirtualItems()}>
          {(row) => (
            <div class="vline" data-index={row.index} style={{ transform: `translateY(${row.start}px)` }}>
              {props.lines[row.index] ?? ""}
            </div>
          )}
        </For>
      </div>
    </div>
  );
}
