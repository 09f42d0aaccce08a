/**
 * The language service reads only inside the workspace: an import, a tsconfig "extends" or a path that
 * leads outside it finds nothing (as if the file were absent), so a workspace cannot make the service read
 * (and echo back in hovers or errors) files beyond it.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inProcessBackend } from "../../src/lsp/in-process.js";
import { createNodeRuntime } from "../../src/runtime/node/index.js";
import { runtimeFiles } from "../../src/workspace/language-service.js";

let base: string | undefined;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

describe("the language service stays inside the workspace", () => {
  it("does not resolve imports, extends or lib paths outside it", async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "wb-lsp-sec-")));
    await writeFile(join(base, "secret.ts"), "export const secret: 'the-secret-value' = 'the-secret-value';\n");
    await writeFile(join(base, "base.json"), JSON.stringify({ compilerOptions: { strict: false, noImplicitAny: false } }));
    const root = join(base, "ws");
    await mkdir(root);
    await writeFile(
      join(root, "tsconfig.json"),
      JSON.stringify({ extends: "../base.json", compilerOptions: { strict: true, moduleResolution: "Bundler", module: "ESNext" } }),
    );
    // A link inside the workspace that leads out of it is not followed either.
    await mkdir(join(base, "outside-pkg"));
    await writeFile(join(base, "outside-pkg", "index.ts"), "export const leaked: 'the-secret-value' = 'the-secret-value';\n");
    await symlink(join(base, "outside-pkg"), join(root, "linked"));
    await writeFile(join(root, "b.ts"), "import { leaked } from './linked/index';\nexport const l: number = leaked;\n");
    await writeFile(
      join(root, "a.ts"),
      "import { secret } from '../secret';\nexport const shown: number = secret;\nexport function f(x) { return x; }\n",
    );
    const backend = await inProcessBackend(root, runtimeFiles(createNodeRuntime({ root })));
    const found = (await backend.diagnostics([join(root, "a.ts")]))[join(root, "a.ts")] ?? [];
    const codes = found.filter((d) => d.severity === 1).map((d) => d.code);
    // The import is unresolved (2307), so the secret's type never reaches a message.
    expect(codes).toContain(2307);
    expect(found.map((d) => d.message).join("\n")).not.toContain("the-secret-value");
    // tsconfig's extends outside is not read: strict stays as the workspace set it (implicit any is an error).
    expect(codes).toContain(7006);
    const linked = (await backend.diagnostics([join(root, "b.ts")]))[join(root, "b.ts")] ?? [];
    expect(linked.map((d) => d.code)).toContain(2307);
    expect(linked.map((d) => d.message).join("\n")).not.toContain("the-secret-value");
    const hover = (await backend.query({ operation: "hover", path: join(root, "a.ts"), line: 0, character: 10 })) as {
      contents: { value: string };
    } | null;
    expect(hover?.contents.value ?? "").not.toContain("the-secret-value");
  });
});
