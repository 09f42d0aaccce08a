/**
 * Where a list of calls was scrolled to, kept across reloads per session: a reload shows the same
 * place, and a list never seen before opens at its end (the newest call), where the work is.
 */
export interface SavedScroll {
  top: number;
  /** Scrolled to the end: the end is shown again even when calls were added meanwhile. */
  atEnd: boolean;
}

/** Within this many pixels of the end counts as at the end (sub-pixel layouts never reach it exactly). */
const END_SLACK = 8;

export function scrollTarget(saved: SavedScroll | undefined, scrollHeight: number, clientHeight: number): number {
  const end = Math.max(0, scrollHeight - clientHeight);
  if (!saved || saved.atEnd) return end;
  return Math.min(Math.max(0, saved.top), end);
}

export function scrollState(top: number, scrollHeight: number, clientHeight: number): SavedScroll {
  return { top: Math.round(top), atEnd: top + clientHeight >= scrollHeight - END_SLACK };
}

export function readScroll(storage: Pick<Storage, "getItem"> | undefined, key: string): SavedScroll | undefined {
  try {
    const value: unknown = JSON.parse(storage?.getItem(key) ?? "null");
    if (typeof value !== "object" || value === null) return undefined;
    const { top, atEnd } = value as Record<string, unknown>;
    return typeof top === "number" && Number.isFinite(top) && typeof atEnd === "boolean" ? { top, atEnd } : undefined;
  } catch {
    return undefined;
  }
}

export function writeScroll(storage: Pick<Storage, "setItem"> | undefined, key: string, scroll: SavedScroll): void {
  try {
    storage?.setItem(key, JSON.stringify(scroll));
  } catch {
    // Not kept: the next reload opens at the newest call.
  }
}

/**
 * Keeps `element`'s scroll position under `key()` and puts it back with `restore()`. The cards below
 * load and grow for a moment after they appear, so the position is put back on every frame for a
 * while, until the user scrolls, clicks or types there themselves.
 */
export function bindScrollMemory(
  element: HTMLElement,
  options: { key: () => string | undefined; storage: Pick<Storage, "getItem" | "setItem"> | undefined; active: () => boolean },
) {
  let restoring = 0;
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopRestoring = () => {
    restoring = 0;
    cancelAnimationFrame(frame);
  };
  const onScroll = () => {
    if (restoring > 0 || !options.active()) return;
    const key = options.key();
    if (!key || element.childElementCount === 0) return;
    clearTimeout(timer);
    timer = setTimeout(
      () => writeScroll(options.storage, key, scrollState(element.scrollTop, element.scrollHeight, element.clientHeight)),
      150,
    );
  };
  element.addEventListener("scroll", onScroll, { passive: true });
  for (const kind of ["wheel", "pointerdown", "keydown", "touchstart"]) element.addEventListener(kind, stopRestoring, { passive: true });
  return {
    /** Puts the saved place back (the end when none was saved), over the next second or so. */
    restore() {
      const key = options.key();
      if (!key) return;
      const saved = readScroll(options.storage, key);
      stopRestoring();
      restoring = 60;
      const step = () => {
        if (restoring <= 0) return;
        restoring--;
        element.scrollTop = scrollTarget(saved, element.scrollHeight, element.clientHeight);
        frame = requestAnimationFrame(step);
      };
      step();
    },
    dispose() {
      stopRestoring();
      clearTimeout(timer);
      element.removeEventListener("scroll", onScroll);
      for (const kind of ["wheel", "pointerdown", "keydown", "touchstart"]) element.removeEventListener(kind, stopRestoring);
    },
  };
}
