/**
 * A hot update ("fast refresh light"): after an edit, the frame keeps its document, its React and every
 * module that did not change, and runs again only the modules whose code changed, the modules that import
 * them (up to the page's entries), and the entries, which render the app again. Component state is lost
 * (the roots are unmounted and made again); state held in modules that did not run again is kept.
 *
 * This file decides, from the build the frame runs and the build after the edit, whether a hot update can
 * show the new build exactly, and what it sends; anything it cannot do that way is a full reload, with why.
 */
import type { FrameBlob, ModuleImport, PreviewBuild } from "./build.js";

/** One module the frame makes again: its code, and where it names other modules by key. */
interface HotModule {
  key: string;
  path: string;
  code: string;
  imports: ModuleImport[];
}

/** What the frame is sent: modules in dependency order (each after what it imports), then the entries to run. */
export interface HotUpdate {
  modules: HotModule[];
  entries: string[];
  /** The placeholders in `modules` use this build's nonce and numbers; `refs` maps them to the frame's files. */
  nonce: string;
  refs: Record<number, number>;
}

export type HotPlan = { hot: HotUpdate } | { reload: string };

/** The frame's files other than ES modules (assets, style sheets, scripts, CommonJS), by kind and path. */
export type FrameFiles = Map<string, number>;

type EsmBlob = Extract<FrameBlob, { kind: "esm" }>;

const fileId = (blob: FrameBlob) => `${blob.kind}:${blob.path}`;

/** The numbers the frame gave its files when the page was loaded: hot updates refer to them. */
export function frameFiles(build: PreviewBuild): FrameFiles {
  return new Map(build.payload.blobs.filter((blob) => blob.kind !== "esm").map((blob) => [fileId(blob), blob.ref]));
}

/** A module's code with each placeholder named by the file it stands for, so two builds compare. */
function comparable(blob: EsmBlob, build: PreviewBuild, byRef: Map<number, FrameBlob>): string {
  const placeholder = new RegExp(`__wbref_${build.payload.nonce}_(\\d+)__`, "g");
  return blob.code.replace(placeholder, (_, ref: string) => {
    const target = byRef.get(Number(ref));
    return target ? `__wbref_${fileId(target)}__` : "__wbref_?__";
  });
}

function modulesOf(build: PreviewBuild): Map<string, EsmBlob> {
  const modules = new Map<string, EsmBlob>();
  for (const blob of build.payload.blobs) if (blob.kind === "esm") modules.set(blob.key, blob);
  return modules;
}

/**
 * `previous` is what the frame runs now (its first build, or the build of the last hot update), `files`
 * the frame's other files as numbered at its load, `next` the build after the edit.
 */
export function planHotUpdate(previous: PreviewBuild, files: FrameFiles, next: PreviewBuild, changed: readonly string[]): HotPlan {
  if (next.htmlPath !== previous.htmlPath || changed.includes(next.htmlPath)) return { reload: "the page's HTML changed" };
  if (next.entries.join("\n") !== previous.entries.join("\n")) return { reload: "the page's module scripts changed" };

  // Style sheets linked by the page, assets, classic scripts and CommonJS packages are made once, at load.
  const refs: Record<number, number> = {};
  for (const blob of next.payload.blobs) {
    if (blob.kind === "esm") continue;
    const ref = files.get(fileId(blob));
    if (ref === undefined || changed.includes(blob.path))
      return { reload: `${blob.path} is not a module the page can run again (${blob.kind})` };
    refs[blob.ref] = ref;
  }

  // A file the page fetched (or a module it no longer imports) is read at run time: only a reload reads it again.
  const built = new Set(next.payload.blobs.map((blob) => blob.path));
  const fetched = changed.find((path) => previous.loaded.has(path) && !built.has(path));
  if (fetched !== undefined) return { reload: `${fetched} was read by the page, not imported` };

  const before = modulesOf(previous);
  const after = modulesOf(next);
  const beforeRefs = new Map(previous.payload.blobs.map((blob) => [blob.ref, blob]));
  const afterRefs = new Map(next.payload.blobs.map((blob) => [blob.ref, blob]));
  const importers = new Map<string, string[]>();
  for (const blob of after.values())
    for (const site of blob.imports) importers.set(site.key, [...(importers.get(site.key) ?? []), blob.key]);

  // What changed, then everything that imports it, up to the entries; and the entries, which render again.
  const again = new Set<string>();
  const visit = (key: string) => {
    if (again.has(key)) return;
    again.add(key);
    for (const importer of importers.get(key) ?? []) visit(importer);
  };
  for (const [key, blob] of after) {
    const old = before.get(key);
    if (!old || comparable(old, previous, beforeRefs) !== comparable(blob, next, afterRefs)) visit(key);
  }
  if (again.size === 0) return { hot: { modules: [], entries: [], nonce: next.payload.nonce, refs } };
  for (const entry of next.entries) visit(entry);

  // Each module is made after the modules it imports (its code names their new URLs); a cycle cannot be.
  const ordered: HotModule[] = [];
  const state = new Map<string, "visiting" | "done">();
  const place = (key: string): boolean => {
    const seen = state.get(key);
    if (seen === "done") return true;
    if (seen === "visiting") return false;
    state.set(key, "visiting");
    const blob = after.get(key)!;
    for (const site of blob.imports) if (again.has(site.key) && !place(site.key)) return false;
    state.set(key, "done");
    ordered.push({ key, path: blob.path, code: blob.code, imports: blob.imports });
    return true;
  };
  for (const key of again)
    if (!place(key)) return { reload: `${after.get(key)!.path} is in an import cycle among the modules to run again` };
  return { hot: { modules: ordered, entries: next.entries, nonce: next.payload.nonce, refs } };
}
