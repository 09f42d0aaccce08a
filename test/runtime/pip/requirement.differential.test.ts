/**
 * The embedded pip's reading of requirements against `packaging` (the library real pip uses), run by real
 * python3 on the same generated cases: whether an environment marker holds for Pyodide's CPython (with no
 * extra asked for, and with one, where pip follows the base's dependencies and the extra's), and which version a specifier picks from an index's versions (pre-releases
 * only when nothing else fits, as pip picks).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MARKER_ENVIRONMENT } from "../../../src/runtime/embedded/pip/environment.js";
import { pickFile } from "../../../src/runtime/embedded/pip/resolve.js";
import { markerApplies, parseRequirement } from "../../../src/runtime/embedded/pip/requirement.js";

/** Runs `packaging` (or pip's copy of it) in real python3 on JSON input. */
function withPackaging(script: string, input: unknown): unknown {
  const prelude = `
import json, sys
try:
    from packaging.markers import Marker
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version
except ImportError:
    from pip._vendor.packaging.markers import Marker
    from pip._vendor.packaging.specifiers import SpecifierSet
    from pip._vendor.packaging.version import Version
data = json.load(sys.stdin)
`;
  const result = spawnSync("python3", ["-c", prelude + script], { input: JSON.stringify(input), encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

/** A small seeded generator, so a failure names a case that comes back. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

const VALUES: Record<string, string[]> = {
  python_version: ["2.7", "3", "3.8", "3.13", "3.14", "3.15", "4.0"],
  python_full_version: ["3.14.0", "3.14.2", "3.14.3", "3.9.1"],
  sys_platform: ["emscripten", "win32", "linux", "darwin"],
  platform_system: ["Emscripten", "Windows", "Linux"],
  os_name: ["posix", "nt"],
  platform_machine: ["wasm32", "x86_64", "arm64"],
  implementation_name: ["cpython", "pypy"],
  platform_python_implementation: ["CPython", "PyPy"],
  // Extra names as their projects normalise them: packaging 26 leaves an unnormalised name inside
  // parentheses as written (PEP 685 says to normalise both sides, which a top-level case checks below).
  extra: ["fast", "fast-mode", "test", "docs-all"],
};
const VERSION_VARIABLES = new Set(["python_version", "python_full_version"]);

function generatedMarker(next: () => number, depth = 0): string {
  if (depth < 2 && next() < 0.35) {
    const join = pick(next, [" and ", " or "]);
    const inner = `${generatedMarker(next, depth + 1)}${join}${generatedMarker(next, depth + 1)}`;
    return next() < 0.5 ? `(${inner})` : inner;
  }
  const variable = pick(next, Object.keys(VALUES));
  const value = pick(next, VALUES[variable]!);
  const ops = VERSION_VARIABLES.has(variable) ? ["<", "<=", "==", "!=", ">=", ">", "~="] : ["==", "!="];
  let op = pick(next, ops);
  if (op === "~=" && !value.includes(".")) op = ">=";
  const quote = pick(next, ['"', "'"]);
  return next() < 0.15 && !VERSION_VARIABLES.has(variable) && variable !== "extra"
    ? `${quote}${value.slice(0, 3)}${quote} in ${variable}`
    : `${variable} ${op} ${quote}${value}${quote}`;
}

describe("environment markers, against packaging", () => {
  it("400 generated markers and 2 written ones hold or not as packaging says, with no extra and with each extra", () => {
    const next = random(28);
    const markers = ['extra == "Fast_Mode"', 'extra != "docs.all"', ...Array.from({ length: 400 }, () => generatedMarker(next))];
    const extras = ["", "fast", "fast-mode", "test"];
    const expected = withPackaging(
      `env = data["env"]
# What pip follows for pkg[e]: the base's dependencies (extra "") and the extra's.
holds = lambda m, e: Marker(m).evaluate(dict(env, extra="")) or (e != "" and Marker(m).evaluate(dict(env, extra=e)))
print(json.dumps([[holds(m, e) for e in data["extras"]] for m in data["markers"]]))`,
      { env: MARKER_ENVIRONMENT, markers, extras },
    ) as boolean[][];
    const ours = markers.map((marker) => extras.map((extra) => markerApplies(parseRequirement(`x; ${marker}`), extra ? [extra] : [])));
    const differing = markers.filter((_, i) => JSON.stringify(ours[i]) !== JSON.stringify(expected[i]));
    expect(differing.map((marker) => [marker, ours[markers.indexOf(marker)], expected[markers.indexOf(marker)]])).toEqual([]);
  });
});

describe("picking a version, against packaging", () => {
  const versions = ["0.9", "1.0", "1.0.post1", "1.1", "1.2rc1", "1.10", "2.0", "2.1.dev3", "2.1b2", "3.0a1"];
  const specifiers = [
    "",
    ">=1.0",
    "<1.1",
    "==1.*",
    "~=1.1",
    "!=2.0,>=1.1",
    ">2.0",
    "<2.0,>1.10",
    "==1.0",
    ">=2.1a1",
    ">3",
    ">=1.0.post1,<1.1",
  ];

  it("each specifier picks the version packaging's SpecifierSet.filter tops", () => {
    const expected = withPackaging(
      `out = []
for spec in data["specifiers"]:
    chosen = list(SpecifierSet(spec).filter(data["versions"]))
    out.append(str(max(chosen, key=Version)) if chosen else None)
print(json.dumps(out))`,
      { versions, specifiers },
    ) as Array<string | null>;
    const files = versions.map((version) => ({ filename: `pkg-${version}-py3-none-any.whl`, url: "http://index/", yanked: false }));
    const ours = specifiers.map((specifier) => {
      try {
        return pickFile("pkg", files, specifier).filename.split("-")[1]!;
      } catch {
        return null;
      }
    });
    expect(ours).toEqual(expected);
  });
});
