/**
 * Hot updates over any sequence of edits: after each one, the modules the frame would run (FrameModel
 * plays the frame) are exactly a fresh build's, every import reaching the newest copy of its module; and
 * an update makes again only modules whose code changed or that import one (plus the entry).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PreviewBuilder } from "../../src/workspace/preview/build.js";
import { frameFiles, planHotUpdate } from "../../src/workspace/preview/hot-update.js";
import { FrameModel } from "../workspace/preview/frame-model.js";
import { folderWith } from "../workspace/preview/support.js";

const MODULES = 6;

type Edit =
  | { kind: "value"; module: number; text: string }
  | { kind: "import"; module: number; target: number }
  | { kind: "new"; module: number }
  | { kind: "same"; module: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("value" as const), module: fc.nat(MODULES - 1), text: fc.constantFrom("a", "b", "c", "d") }),
  fc.record({ kind: fc.constant("import" as const), module: fc.nat(MODULES - 1), target: fc.nat(MODULES - 1) }),
  fc.record({ kind: fc.constant("new" as const), module: fc.nat(MODULES - 1) }),
  fc.record({ kind: fc.constant("same" as const), module: fc.nat(MODULES - 1) }),
);

/** Modules m0..m5; each imports only higher-numbered ones (and new leaves), so no cycle can form. */
class App {
  readonly values: string[] = Array.from({ length: MODULES }, () => "first");
  readonly imports: Array<Set<string>> = Array.from({ length: MODULES }, (_, i) => new Set(i + 1 < MODULES ? [`m${i + 1}`] : []));
  newModules = 0;

  source(i: number): string {
    const names = [...this.imports[i]!].sort();
    return [
      ...names.map((name) => `import { v as ${name} } from "./${name}.js";`),
      `export const v = ${JSON.stringify(this.values[i])} + [${names.join(", ")}].join(",");`,
    ].join("\n");
  }

  files(): Record<string, string> {
    const files: Record<string, string> = {
      "index.html": '<div id="root"></div><script type="module" src="main.js"></script>',
      "main.js": 'import { v } from "./m0.js";\ndocument.body.append(v);\n',
    };
    for (let i = 0; i < MODULES; i++) files[`m${i}.js`] = this.source(i);
    return files;
  }

  /** Applies the edit; returns the files it writes. */
  apply(change: Edit): Record<string, string> {
    const i = change.module;
    if (change.kind === "value") this.values[i] = change.text;
    if (change.kind === "import" && change.target > i) {
      const name = `m${change.target}`;
      if (this.imports[i]!.has(name)) this.imports[i]!.delete(name);
      else this.imports[i]!.add(name);
    }
    const written: Record<string, string> = {};
    if (change.kind === "new") {
      const name = `n${this.newModules++}`;
      written[`${name}.js`] = `export const v = "${name}";`;
      this.imports[i]!.add(name);
    }
    written[`m${i}.js`] = this.source(i);
    return written;
  }
}

describe("hot updates, property-based", () => {
  it("after any sequence of edits the frame runs exactly what a fresh build gives", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const app = new App();
        const { root, files, dispose } = await folderWith(app.files());
        try {
          const html = join(root, "index.html");
          const builder = new PreviewBuilder(files, root);
          const first = await builder.build(html);
          const frame = new FrameModel(first);
          let current = first;
          for (const change of edits) {
            const written = app.apply(change);
            for (const [name, text] of Object.entries(written)) await writeFile(join(root, name), text);
            const changed = Object.keys(written).map((name) => join(root, name));
            builder.invalidate(changed);
            const next = await builder.build(html);
            const plan = planHotUpdate(current, frameFiles(first), next, changed);
            if ("reload" in plan) throw new Error(`an edit of modules only was a reload: ${plan.reload}`);
            // What it makes again changed, or imports what did, or is the entry.
            const made = new Set(plan.hot.modules.map((module) => module.key));
            const before = new Map(current.payload.blobs.flatMap((blob) => (blob.kind === "esm" ? [[blob.key, blob.code]] : [])));
            for (const module of plan.hot.modules) {
              const reason =
                before.get(module.key) !== module.code ||
                module.imports.some((site) => made.has(site.key)) ||
                plan.hot.entries.includes(module.key);
              expect(reason, `${module.path} was made again for no reason`).toBe(true);
            }
            frame.apply(plan.hot, first);
            frame.expectRuns(await new PreviewBuilder(files, root).build(html));
            current = next;
          }
        } finally {
          await dispose();
        }
      }),
      { numRuns: 40 },
    );
  });
});
