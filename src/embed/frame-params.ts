/** The frame's options from its address (protocol.ts frameUrl writes them); unknown values fall back. */
import type { FrameParams, ThemeName, ViewName } from "./protocol.js";

const VIEWS: readonly ViewName[] = ["chat", "tools", "editor", "terminal", "preview"];

export interface ReadFrameParams extends Required<Omit<FrameParams, "theme" | "view">> {
  theme: ThemeName | undefined;
  /** Undefined when the author named none: the frame then opens on what the host's files make best. */
  view: ViewName | undefined;
}

export function readFrameParams(search: string): ReadFrameParams {
  const params = new URLSearchParams(search);
  const view = params.get("view");
  const theme = params.get("theme");
  return {
    view: VIEWS.includes(view as ViewName) ? (view as ViewName) : undefined,
    theme: theme === "light" || theme === "dark" ? theme : undefined,
    readOnly: params.get("readOnly") === "1",
    clickToLoad: params.get("ctl") === "1",
    autoHeight: params.get("autoHeight") === "1",
    origins: (params.get("origins") ?? "").split(/\s+/).filter(Boolean),
  };
}

/** Whether this page is an embed's frame. */
function isEmbedFrame(search: string): boolean {
  return new URLSearchParams(search).get("embed") === "1";
}
