/** A generated TypeScript workspace of `count` files: a chain of modules, each importing the one before. */
export function chainWorkspace(count: number): Record<string, string> {
  const files: Record<string, string> = {
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", noEmit: true },
      include: ["src"],
    }),
  };
  for (let i = 0; i < count; i++) {
    const dir = `src/part${Math.floor(i / 100)}`;
    const prev = i - 1;
    const importLine = i === 0 ? "" : `import { v${prev}, type Item${prev} } from "../part${Math.floor(prev / 100)}/m${prev}";\n`;
    files[`${dir}/m${i}.ts`] =
      importLine +
      `export interface Item${i} { id: number; name: string; next?: Item${i} }\n` +
      `export const v${i}: number = ${i === 0 ? "0" : `v${prev} + 1`};\n` +
      `export function make${i}(name: string): Item${i} {\n  return { id: v${i}, name };\n}\n` +
      (i === 0 ? "" : `export const from${i}: Item${prev} = { id: v${prev}, name: "m${prev}" };\n`);
  }
  return files;
}
