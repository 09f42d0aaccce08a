import { expect, openWorkbench, test } from "./fixtures.js";

// The bash tool's parser loads web-tree-sitter and the bash grammar from `${BASE_URL}wasm/` in the browser
// (src/tools/bash/parser.ts). Both must be served by the built app and compile in Chromium.
test("the bash parser's wasm files are served with the app and compile in the browser", async ({ page }) => {
  await openWorkbench(page, "?memory=1");
  const results = await page.evaluate(async () => {
    const out: Array<{ file: string; status: number; type: string | null; compiles: boolean }> = [];
    for (const file of ["web-tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
      const response = await fetch(`/wasm/${file}`);
      const bytes = await response.arrayBuffer();
      const compiles = await WebAssembly.compile(bytes).then(
        () => true,
        () => false,
      );
      out.push({ file, status: response.status, type: response.headers.get("content-type"), compiles });
    }
    return out;
  });
  for (const result of results) {
    expect(result).toMatchObject({ status: 200, compiles: true });
    expect(result.type).toContain("wasm");
  }
});
