// `npm test`: typecheck, unit and contract tests (vitest), then the e2e suite (Playwright on the
// built app). Ends with one line, "N passed, M failed", summed over both runners.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const reports = ".reports";
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
}

let passed = 0;
let failed = 0;
const problems = [];

if (run("format and lint", "npx", ["biome", "check", "."]) !== 0) {
  failed += 1;
  problems.push("files are not formatted, or an import is unused: run `npm run format` (counted as one failure)");
}

if (run("unused files and exports", "npx", ["knip", "--no-progress"]) !== 0) {
  failed += 1;
  problems.push(
    "knip found unused files, exports or dependencies: remove them, or list a real entry in knip.json (counted as one failure)",
  );
}

if (run("typecheck", "npx", ["tsc", "--noEmit", "-p", "tsconfig.json"]) !== 0) {
  failed += 1;
  problems.push("typecheck failed (counted as one failure)");
}

const vitestReport = `${reports}/vitest.json`;
const vitestStatus = run("unit and contract tests", "npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numPendingTests + report.numTodoTests > 0)
    problems.push(`vitest: ${report.numPendingTests + report.numTodoTests} skipped or todo tests`);
  if (vitestStatus !== 0 && report.numFailedTests === 0) {
    failed += 1;
    problems.push("vitest exited with an error outside any test (counted as one failure)");
  }
} else {
  failed += 1;
  problems.push("vitest wrote no report (counted as one failure)");
}

const buildStatus = run("build", "npx", ["vite", "build"]);
const playwrightReport = `${reports}/playwright.json`;
if (buildStatus !== 0) {
  failed += 1;
  problems.push("vite build failed, so the e2e suite could not run (counted as one failure)");
} else {
  const e2eStatus = run("e2e", "npx", ["playwright", "test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport });
  if (existsSync(playwrightReport)) {
    const stats = JSON.parse(readFileSync(playwrightReport, "utf8")).stats;
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    if (stats.skipped > 0) problems.push(`playwright: ${stats.skipped} skipped tests`);
    if (stats.flaky > 0) problems.push(`playwright: ${stats.flaky} flaky tests`);
    if (e2eStatus !== 0 && stats.unexpected === 0) {
      failed += 1;
      problems.push("playwright exited with an error outside any test (counted as one failure)");
    }
  } else {
    failed += 1;
    problems.push("playwright wrote no report (counted as one failure)");
  }
}

for (const problem of problems) console.log(`note: ${problem}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
