/**
 * What the embedded npm promises beyond what real npm can be compared with: clear errors (a 404, a
 * tarball that does not match its integrity, offline with nothing cached), the cache making a second
 * install work with the registry gone, install scripts skipped and named, bins handed to `node` through
 * the shell, `npx` never installing, and `npm ci` refusing a lockfile out of step with package.json.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../../src/runtime/embedded/node-worker-factory.js";
import { npmDistTags, npmFixtures } from "../../support/npm-fixtures.js";
import { startNpmRegistry, type NpmRegistry } from "../../support/npm-registry.js";
import { startWebServer } from "../../support/web-server.js";

let registry: NpmRegistry;
let runtime: EmbeddedRuntime;
const dir = "/workspace";
const text = async (path: string) => new TextDecoder().decode(await runtime.fs.readFile(path));
const exists = async (path: string) =>
  runtime.fs.stat(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  registry = await startNpmRegistry(npmFixtures, npmDistTags);
}, 60_000);

afterAll(async () => {
  await registry?.close();
});

beforeEach(async () => {
  registry.setOffline(false);
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
  await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify({ name: "app", version: "1.0.0" }, null, 2)}\n`);
  await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${registry.url}/\n`);
});

afterEach(async () => {
  await runtime.dispose();
});

describe("npm install: errors", () => {
  it("a dependency the registry does not have fails with npm's E404 and changes nothing", async () => {
    const result = await runtime.exec("npm install wants-missing", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("npm error code E404");
    expect(result.stderr).toContain(`404 Not Found - GET ${registry.url}/no-such-package`);
    expect(result.stderr).toContain("'no-such-package@^1.0.0' could not be found");
    expect(await exists(`${dir}/node_modules`)).toBe(false);
    expect(await exists(`${dir}/package-lock.json`)).toBe(false);
  });

  it("a tarball that does not hash to its integrity fails with EINTEGRITY and is not unpacked", async () => {
    const result = await runtime.exec("npm install bad-integrity", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("npm error code EINTEGRITY");
    expect(result.stderr).toMatch(/integrity checksum failed when using sha512: wanted sha512-\S+ but got sha512-\S+\. \(\d+ bytes\)/);
    expect(await exists(`${dir}/node_modules/bad-integrity`)).toBe(false);
  });

  it("offline with nothing cached names what could not be fetched", async () => {
    registry.setOffline(true);
    const result = await runtime.exec("npm install leaf", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("npm error code ENOTCACHED");
    expect(result.stderr).toContain(`request to ${registry.url}/leaf failed`);
    expect(result.stderr).toContain("leaf could not be fetched and is not in the cache");
  });

  it("a spec this npm cannot resolve (git, file:) says so", async () => {
    const result = await runtime.exec("npm install leaf@github:someone/leaf", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("installs from a registry only");
  });
});

describe("npm install: the cache", () => {
  it("a second install of the same versions works with the registry gone, from package-lock.json", async () => {
    expect((await runtime.exec("npm install with-deps needs-leaf2", { cwd: dir })).exitCode).toBe(0);
    registry.setOffline(true);
    const before = registry.requestedPaths().length;
    await runtime.exec("rm -rf node_modules", { cwd: dir });
    const again = await runtime.exec("npm ci", { cwd: dir });
    expect(again.stderr).toBe("");
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/added 5 packages in/);
    expect(JSON.parse(await text(`${dir}/node_modules/with-deps/node_modules/leaf/package.json`)).version).toBe("1.1.0");
    // Every request after going offline failed at the socket: the files came from the cache.
    expect(registry.requestedPaths().length).toBe(before);
  });

  it("npm install with nothing new to do reports up to date and rewrites no package", async () => {
    await runtime.exec("npm install leaf@1.0.0", { cwd: dir });
    await runtime.fs.writeFile(`${dir}/node_modules/leaf/marker.txt`, "kept");
    const again = await runtime.exec("npm install", { cwd: dir });
    expect(again.stdout).toMatch(/^\nup to date in \d+m?s\n$/);
    expect(await text(`${dir}/node_modules/leaf/marker.txt`)).toBe("kept");
  });
});

describe("npm install: saving, scripts and bins", () => {
  it("saves ^version for a bare name, the range as typed, and -D into devDependencies", async () => {
    await runtime.exec("npm install leaf", { cwd: dir });
    await runtime.exec("npm i '@scope/util@~1.0.0' -D", { cwd: dir });
    await runtime.exec("npm install tagged@next", { cwd: dir });
    const manifest = JSON.parse(await text(`${dir}/package.json`));
    expect(manifest.dependencies).toEqual({ leaf: "^2.0.0", tagged: "^2.0.0-beta.1" });
    expect(manifest.devDependencies).toEqual({ "@scope/util": "~1.0.0" });
  });

  it("skips install scripts and names them", async () => {
    const result = await runtime.exec("npm install tool-bin", { cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("skipped install scripts");
    expect(result.stderr).toContain("tool-bin@1.0.0 (postinstall)");
  });

  it("a bin runs `node <its file>` through the shell, from npx, npm run and node_modules/.bin", async () => {
    await runtime.exec("npm install tool-bin", { cwd: dir });
    // A stand-in `node` (a shell script on PATH) shows what the bin entry asks node to run.
    await runtime.fs.mkdir("/opt/fake-node", { recursive: true });
    await runtime.fs.writeFile("/opt/fake-node/node", '#!/bin/sh\necho "node got: $@"\n');
    await runtime.fs.chmod("/opt/fake-node/node", 0o755);
    const env = { PATH: "/opt/fake-node:/usr/bin:/bin" };
    const viaNpx = await runtime.exec("npx tool-bin a 'b c'", { cwd: dir, env });
    expect(viaNpx.stdout).toBe("node got: /workspace/node_modules/.bin/../tool-bin/cli.js a b c\n");
    const manifest = JSON.parse(await text(`${dir}/package.json`));
    manifest.scripts = { go: "tool-alias --x" };
    await runtime.fs.writeFile(`${dir}/package.json`, JSON.stringify(manifest));
    const viaRun = await runtime.exec("npm run go --silent", { cwd: dir, env });
    expect(viaRun.stdout).toBe("node got: /workspace/node_modules/.bin/../tool-bin/cli.js --x\n");
    const direct = await runtime.exec("./node_modules/.bin/tool-bin z", { cwd: dir, env });
    expect(direct.stdout).toBe("node got: /workspace/node_modules/.bin/../tool-bin/cli.js z\n");
  });

  it("npx of something not installed says so and installs nothing", async () => {
    const asked = registry.requestedPaths().length;
    const result = await runtime.exec("npx leaf", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('"leaf" is not installed');
    expect(result.stderr).toContain("npm install leaf");
    expect(await exists(`${dir}/node_modules`)).toBe(false);
    expect(registry.requestedPaths().slice(asked)).toEqual([]);
  });
});

describe("npm ci and uninstall", () => {
  it("npm ci without a lockfile fails with EUSAGE", async () => {
    const result = await runtime.exec("npm ci", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("npm error code EUSAGE");
    expect(result.stderr).toContain("can only install with an existing package-lock.json");
  });

  it("npm ci with a lockfile out of step with package.json fails and names the difference", async () => {
    await runtime.exec("npm install leaf@1.0.0", { cwd: dir });
    const manifest = JSON.parse(await text(`${dir}/package.json`));
    manifest.dependencies["needs-leaf2"] = "^1.0.0";
    await runtime.fs.writeFile(`${dir}/package.json`, JSON.stringify(manifest));
    const result = await runtime.exec("npm ci", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("are in sync");
    expect(result.stderr).toContain("Missing: needs-leaf2@^1.0.0 from lock file");
  });

  it("uninstall removes the package, what only it needed, its bins and its package.json entry", async () => {
    await runtime.exec("npm install with-deps tool-bin", { cwd: dir });
    expect(await exists(`${dir}/node_modules/.bin/tool-bin`)).toBe(true);
    const result = await runtime.exec("npm uninstall tool-bin with-deps", { cwd: dir });
    expect(result.exitCode).toBe(0);
    // with-deps, tool-bin, leaf 1.1.0, @scope/util 1.2.0 and the leaf 2.0.0 nested under it.
    expect(result.stdout).toMatch(/removed 5 packages in/);
    expect(await exists(`${dir}/node_modules/tool-bin`)).toBe(false);
    expect(await exists(`${dir}/node_modules/leaf`)).toBe(false);
    expect(await exists(`${dir}/node_modules/.bin/tool-bin`)).toBe(false);
    expect(JSON.parse(await text(`${dir}/package.json`)).dependencies).toBeUndefined();
    expect(JSON.parse(await text(`${dir}/package-lock.json`)).packages).toEqual({ "": { name: "app", version: "1.0.0" } });
  });
});

describe("npm install: the workbench's fetch proxy", () => {
  it("a registry that cannot be reached directly is read through $WORKBENCH_FETCH_PROXY; a direct 404 is not retried", async () => {
    const unreachable = "http://127.0.0.1:1";
    const proxied: string[] = [];
    const proxy = await startWebServer({
      "/proxy": async (request, response) => {
        const target = new URL(request.url ?? "/", "http://x").searchParams.get("url") ?? "";
        proxied.push(target);
        const answer = await fetch(target.replace(unreachable, registry.url));
        response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        response.end(Buffer.from(await answer.arrayBuffer()));
      },
    });
    try {
      await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${unreachable}/\n`);
      const env = { WORKBENCH_FETCH_PROXY: `${proxy.url}/proxy?url={url}` };
      const result = await runtime.exec("npm install leaf@1.0.0", { cwd: dir, env });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(proxied).toContain(`${unreachable}/leaf`);
      expect(JSON.parse(await text(`${dir}/node_modules/leaf/package.json`)).version).toBe("1.0.0");
      await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${registry.url}/\n`);
      const before = proxied.length;
      const missing = await runtime.exec("npm install no-such-package", { cwd: dir, env });
      expect(missing.stderr).toContain("E404");
      expect(proxied.length).toBe(before);
    } finally {
      await proxy.close();
    }
  });
});

describe("npm install: node_modules as a link", () => {
  it("a node_modules that links to another folder is installed into through the link", async () => {
    await runtime.fs.mkdir("/workspace-shared/modules", { recursive: true });
    expect((await runtime.exec("ln -s /workspace-shared/modules node_modules", { cwd: dir })).exitCode).toBe(0);
    const result = await runtime.exec("npm install with-deps", { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await text("/workspace-shared/modules/with-deps/package.json")).toContain('"name": "with-deps"');
    expect(await text(`${dir}/node_modules/leaf/index.js`)).toContain("leaf@1.1.0");
  });
});
