/**
 * `npm install` of a 100-package tree from the registry stand-in on loopback (real tarballs from `npm
 * pack`): the embedded runtime's npm (just-bash in a worker_threads worker, files over a message port)
 * against this machine's real npm from the same stand-in in the same run, each with an empty cache;
 * then both again from their cache with the registry gone (`npm ci`, node_modules removed first).
 * The embedded runtime runs in Node here, not in Chromium: the same worker code, without the page.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createEmbeddedRuntime } from "../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../src/runtime/embedded/node-worker-factory.js";
import { largeNpmTree } from "../test/support/npm-large-tree.js";
import { startNpmRegistry } from "../test/support/npm-registry.js";

function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

export async function benchNpmInstall() {
  const { packages, dependencies: root } = largeNpmTree();
  const registry = await startNpmRegistry(packages);
  const scratch = await mkdtemp(join(tmpdir(), "workbench-bench-npm-"));
  const manifest = `${JSON.stringify({ name: "bench-app", version: "1.0.0", dependencies: root }, null, 2)}\n`;
  const realDir = join(scratch, "app");
  await promisify(execFile)("mkdir", ["-p", realDir]);
  await writeFile(join(realDir, "package.json"), manifest);
  await writeFile(join(scratch, "user-npmrc"), "");
  await writeFile(join(scratch, "global-npmrc"), "");
  const env = {
    ...cleanEnv(),
    npm_config_cache: join(scratch, "real-cache"),
    npm_config_userconfig: join(scratch, "user-npmrc"),
    npm_config_globalconfig: join(scratch, "global-npmrc"),
    npm_config_registry: `${registry.url}/`,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  const real = async (args: string[]) => {
    const start = performance.now();
    await promisify(execFile)("npm", [...args, "--ignore-scripts"], { cwd: realDir, env });
    return performance.now() - start;
  };
  const embedded = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
  await embedded.warm();
  await embedded.fs.writeFile("/workspace/package.json", manifest);
  await embedded.fs.writeFile("/workspace/.npmrc", `registry=${registry.url}/\n`);
  const embeddedRun = async (command: string) => {
    const start = performance.now();
    const result = await embedded.exec(command, { cwd: "/workspace" });
    if (result.exitCode !== 0) throw new Error(`embedded ${command} failed: ${result.stderr}`);
    return { ms: performance.now() - start, stdout: result.stdout };
  };
  try {
    const realColdMs = await real(["install"]);
    const embeddedCold = await embeddedRun("npm install");
    const installed = Number(/added (\d+) packages/.exec(embeddedCold.stdout)?.[1] ?? 0);
    registry.setOffline(true);
    await rm(join(realDir, "node_modules"), { recursive: true, force: true });
    const realCachedMs = await real(["ci", "--offline"]);
    await embedded.exec("rm -rf node_modules", { cwd: "/workspace" });
    const embeddedCached = await embeddedRun("npm ci");
    const round = (n: number) => Number(n.toFixed(1));
    return {
      benchmark: "npm-install",
      reference: "real npm (this machine's, --ignore-scripts, fresh cache) from the same registry stand-in, same run",
      packages: installed,
      cold: { embeddedMs: round(embeddedCold.ms), realNpmMs: round(realColdMs), ratio: Number((embeddedCold.ms / realColdMs).toFixed(3)) },
      fromCacheOffline: {
        embeddedMs: round(embeddedCached.ms),
        realNpmMs: round(realCachedMs),
        ratio: Number((embeddedCached.ms / realCachedMs).toFixed(3)),
      },
    };
  } finally {
    await embedded.dispose();
    await registry.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
