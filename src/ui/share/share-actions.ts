/**
 * What the page's Share parts need from the share codec. The UI layer may not load src/embed, so the entry
 * (main.tsx) implements this and hands it down; the UI only draws and calls.
 */
import type { Runtime } from "../../runtime/types.js";
import type { SessionRecord } from "../../session/record/session-record.js";

interface ShareOutcome {
  /** The link, unless it is too long to be one (then only the file is offered). */
  link?: string;
  /** Characters the link has (or would have). */
  length: number;
  /** Past this many characters chat apps may cut the link. */
  warnAt: number;
  /** The same share as a `.workbench.json` file. */
  file: Uint8Array;
  fileName: string;
  /** Files not shared because they may hold keys (`.env` and the like). */
  leftOut?: string[];
}

export interface ShareActions {
  make(runtime: Runtime, options: { name: string; session?: SessionRecord; theme: "light" | "dark" }): Promise<ShareOutcome>;
  /** Opens a `.workbench.json` in a new workspace (the page moves there). Throws an Error saying why it was refused. */
  openFile(file: File): Promise<void>;
}
