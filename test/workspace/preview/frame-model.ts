/**
 * A model of what the preview frame runs, for checking hot updates without a browser: module instances
 * (a key, the code it was made from, and the instance each of its imports reached), made at load as the
 * import map makes them and again as the frame's hot update does (each import pointing at the instance
 * just made, else the key's newest one).
 */
import { expect } from "vitest";
import type { FrameBlob, PreviewBuild } from "../../../src/workspace/preview/build.js";
import type { HotUpdate } from "../../../src/workspace/preview/hot-update.js";

interface Instance {
  key: string;
  code: string;
  imports: Map<string, Instance>;
}

/** Placeholders named by the file they stand for: two builds (two nonces) compare. */
function neutral(code: string, nonce: string, blobs: FrameBlob[]): string {
  const byRef = new Map(blobs.map((blob) => [blob.ref, blob]));
  return code.replace(new RegExp(`__wbref_${nonce}_(\\d+)__`, "g"), (_, ref: string) => {
    const blob = byRef.get(Number(ref))!;
    return `<${blob.kind}:${blob.path}>`;
  });
}

export class FrameModel {
  /** The newest instance of each key (the import map's at first). */
  private readonly current = new Map<string, Instance>();
  private entries: string[];
  /** What the entries ran last: the app on screen. */
  private shown: Instance[];

  constructor(build: PreviewBuild) {
    const modules = build.payload.blobs.filter((blob) => blob.kind === "esm");
    for (const blob of modules)
      this.current.set(blob.key, { key: blob.key, code: neutral(blob.code, build.payload.nonce, build.payload.blobs), imports: new Map() });
    // At load every import goes through the import map to the one instance of its key.
    for (const blob of modules)
      for (const site of blob.imports) this.current.get(blob.key)!.imports.set(site.key, this.current.get(site.key)!);
    this.entries = build.entries;
    this.shown = build.entries.map((key) => this.current.get(key)!);
  }

  /** Does what the frame does with a hot update (`frameFiles` are the numbers the frame gave its other files). */
  apply(update: HotUpdate, loadBuild: PreviewBuild): void {
    const frameByRef = new Map(loadBuild.payload.blobs.map((blob) => [blob.ref, blob]));
    const made = new Map<string, Instance>();
    for (const module of update.modules) {
      const code = module.code.replace(new RegExp(`__wbref_${update.nonce}_(\\d+)__`, "g"), (_, ref: string) => {
        const blob = frameByRef.get(update.refs[Number(ref)]!);
        expect(blob, `placeholder ${ref} of ${module.path} names a file the frame has`).toBeDefined();
        return `<${blob!.kind}:${blob!.path}>`;
      });
      const instance: Instance = { key: module.key, code, imports: new Map() };
      for (const site of module.imports) {
        const target = made.get(site.key) ?? this.current.get(site.key);
        expect(target, `${module.path} imports ${site.key}, which the frame has`).toBeDefined();
        instance.imports.set(site.key, target!);
      }
      made.set(module.key, instance);
    }
    for (const [key, instance] of made) this.current.set(key, instance);
    if (update.entries.length > 0) {
      this.entries = update.entries;
      this.shown = update.entries.map((key) => made.get(key) ?? this.current.get(key)!);
    }
  }

  /** Every instance the app on screen reaches has a fresh build's code and imports. */
  expectRuns(fresh: PreviewBuild): void {
    const modules = new Map(fresh.payload.blobs.flatMap((blob) => (blob.kind === "esm" ? [[blob.key, blob] as const] : [])));
    expect(this.entries).toEqual(fresh.entries);
    const seen = new Set<Instance>();
    const walk = (instance: Instance) => {
      if (seen.has(instance)) return;
      seen.add(instance);
      const blob = modules.get(instance.key);
      expect(blob, `${instance.key} is a module of the fresh build`).toBeDefined();
      expect(instance.code, instance.key).toBe(neutral(blob!.code, fresh.payload.nonce, fresh.payload.blobs));
      expect([...instance.imports.keys()].sort()).toEqual([...new Set(blob!.imports.map((site) => site.key))].sort());
      for (const target of instance.imports.values()) walk(target);
    };
    for (const entry of this.shown) walk(entry);
  }
}
