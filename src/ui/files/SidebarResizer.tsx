/**
 * The handle on the files column's right edge: drag it (or focus it and press the arrow keys) to make the
 * column wider, so long paths and Find in files results can be read. The width is kept in this browser.
 * A phone's one-column layout ignores it.
 */
import { createSignal, onCleanup } from "solid-js";
import "./files.css";

const KEY = "workbench-sidebar-width";
const MIN = 180;
const STEP = 24;

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function saved(): number | undefined {
  const value = Number(storage()?.getItem(KEY));
  return Number.isFinite(value) && value >= MIN ? value : undefined;
}

/** The width in pixels the person chose, if any; `apply` puts it on the panes as `--sidebar-width`. */
export function createSidebarWidth() {
  const [width, setWidth] = createSignal<number | undefined>(saved());
  const set = (next: number) => {
    const max = Math.max(MIN, Math.round(window.innerWidth * 0.6));
    const clamped = Math.round(Math.min(max, Math.max(MIN, next)));
    setWidth(clamped);
    try {
      storage()?.setItem(KEY, String(clamped));
    } catch {
      // Storage refused: the width holds for this tab.
    }
  };
  return { width, set };
}

export function SidebarResizer(props: { width: () => number | undefined; onResize: (width: number) => void }) {
  let handle: HTMLDivElement | undefined;
  const current = () => props.width() ?? handle?.parentElement?.getBoundingClientRect().width ?? 260;
  const [dragging, setDragging] = createSignal(false);
  let stop: (() => void) | undefined;
  onCleanup(() => stop?.());
  const start = (event: PointerEvent) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const left = handle?.parentElement?.getBoundingClientRect().left ?? 0;
    const move = (moved: PointerEvent) => props.onResize(moved.clientX - left);
    const up = () => stop?.();
    stop = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      setDragging(false);
      stop = undefined;
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    setDragging(true);
  };
  return (
    <div
      ref={handle}
      class="sidebar-resizer"
      classList={{ dragging: dragging() }}
      role="separator"
      aria-orientation="vertical"
      aria-label="Width of the files column"
      aria-valuenow={Math.round(current())}
      aria-valuemin={MIN}
      tabIndex={0}
      title="Drag to widen the files column (or focus and use the arrow keys)"
      data-testid="sidebar-resizer"
      onPointerDown={start}
      onKeyDown={(event) => {
        if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
        event.preventDefault();
        props.onResize(current() + (event.key === "ArrowRight" ? STEP : -STEP));
      }}
    />
  );
}
