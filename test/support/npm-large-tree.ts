/**
 * A 100-package tree for the npm benchmarks and the progress tests: 10 packages the project names, each
 * needing 3 of the next layer, down to leaves, with one shared package in two versions (a nested conflict).
 * Each package holds `filesEach` files besides package.json and index.js.
 */
import type { FixturePackage } from "./npm-registry.js";

export function largeNpmTree(filesEach = 3): { packages: FixturePackage[]; dependencies: Record<string, string> } {
  const packages: FixturePackage[] = [];
  for (let i = 0; i < 98; i++) {
    const dependencies: Record<string, string> = {};
    for (let k = 1; k <= 3; k++) {
      const child = i * 3 + k;
      if (child < 98) dependencies[`bench-pkg-${child}`] = "^1.0.0";
    }
    if (i % 7 === 0) dependencies["bench-shared"] = i % 2 === 0 ? "^1.0.0" : "^2.0.0";
    const files: Record<string, string> = { "README.md": `# bench-pkg-${i}\n` };
    for (let f = 1; f < filesEach; f++) files[`lib/part-${f}.js`] = `exports.part = ${i * 1000 + f};\n`;
    packages.push({ name: `bench-pkg-${i}`, version: "1.0.0", dependencies, files });
  }
  packages.push({ name: "bench-shared", version: "1.0.0" }, { name: "bench-shared", version: "2.0.0" });
  const dependencies = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`bench-pkg-${i}`, "^1.0.0"]));
  return { packages, dependencies };
}
