/**
 * Attacks on the embedded npm through what a registry or a lockfile hands it: a tarball entry that
 * climbs out of its package, a symbolic link entry, a dependency name that is a path, bin names and bin
 * targets that are paths, and lockfile locations (package-lock.json and the hidden one in node_modules)
 * that point outside the project. Each must fail or be skipped with nothing outside node_modules changed.
 */
import { gzipSync } from "fflate";
import { packTar } from "modern-tar";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddedRuntime, type EmbeddedRuntime } from "../../src/runtime/embedded/index.js";
import { nodeShellWorkerFactory } from "../../src/runtime/embedded/node-worker-factory.js";
import { startNpmRegistry, type NpmRegistry } from "../support/npm-registry.js";

const text = (value: string) => new TextEncoder().encode(value);
const file = (name: string, content: string) => ({
  header: { name, size: text(content).length, type: "file" as const },
  body: text(content),
});

async function hostileTarball(): Promise<Uint8Array> {
  const tar = await packTar([
    file("package/package.json", '{"name":"evil-tar","version":"1.0.0"}'),
    file("package/../../../escaped.txt", "escaped"),
    file("package/index.js", "module.exports = 1;"),
  ]);
  return gzipSync(tar);
}

async function linkTarball(): Promise<Uint8Array> {
  const tar = await packTar([
    file("package/package.json", '{"name":"link-tar","version":"1.0.0"}'),
    { header: { name: "package/secret", size: 0, type: "symlink", linkname: "/etc/passwd" } },
  ]);
  return gzipSync(tar);
}

let registry: NpmRegistry;
let runtime: EmbeddedRuntime;
const dir = "/workspace";

beforeAll(async () => {
  registry = await startNpmRegistry([
    { name: "evil-tar", version: "1.0.0", replaceTarball: await hostileTarball() },
    { name: "link-tar", version: "1.0.0", replaceTarball: await linkTarball() },
    { name: "evil-dep", version: "1.0.0", dependencies: { "../../outside": "^1.0.0" } },
    {
      name: "evil-bin",
      version: "1.0.0",
      bin: { "../../../escape-bin": "index.js", "out-target": "../../../victim/file.txt", fine: "index.js" },
    },
  ]);
}, 60_000);

afterAll(async () => {
  await registry?.close();
});

beforeEach(async () => {
  runtime = await createEmbeddedRuntime({ workerFactory: nodeShellWorkerFactory, searchWorkers: 1 });
  await runtime.fs.writeFile(`${dir}/package.json`, `${JSON.stringify({ name: "app", version: "1.0.0" })}\n`);
  await runtime.fs.writeFile(`${dir}/.npmrc`, `registry=${registry.url}/\n`);
  await runtime.fs.mkdir("/victim", { recursive: true });
  await runtime.fs.writeFile("/victim/file.txt", "precious");
});

afterEach(async () => {
  await runtime.dispose();
});

/** Every file and folder outside the places an install may write (node_modules, the cache, the two JSON files). */
async function outside(): Promise<string[]> {
  const seen: string[] = [];
  const allowed = [`${dir}/node_modules`, "/var/cache/npm", `${dir}/package.json`, `${dir}/package-lock.json`];
  const visit = async (path: string) => {
    for (const entry of await runtime.fs.readdir(path)) {
      const child = path === "/" ? `/${entry.name}` : `${path}/${entry.name}`;
      if (allowed.some((prefix) => child === prefix || child.startsWith(`${prefix}/`))) continue;
      // The cache's parent folders may be made by the first install.
      if (child === "/var" || child === "/var/cache") {
        await visit(child);
        continue;
      }
      const content = entry.type === "file" ? new TextDecoder().decode(await runtime.fs.readFile(child)) : "";
      seen.push(`${entry.type} ${child} ${content}`);
      if (entry.type === "directory") await visit(child);
    }
  };
  await visit("/");
  return seen.sort();
}

describe("npm install: hostile registries and lockfiles", () => {
  it("a tarball entry climbing out of its package fails the install and writes nothing outside", async () => {
    const before = await outside();
    const result = await runtime.exec("npm install evil-tar", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("npm error code EBADTARBALL");
    expect(result.stderr).toContain("points outside the package");
    expect(await outside()).toEqual(before);
  });

  it("a symbolic link entry is not extracted (npm extracts only files and folders)", async () => {
    const result = await runtime.exec("npm install link-tar", { cwd: dir });
    expect(result.exitCode).toBe(0);
    await expect(runtime.fs.lstat(`${dir}/node_modules/link-tar/secret`)).rejects.toThrow();
  });

  it("a dependency name that is a path is refused before anything is fetched for it", async () => {
    const before = await outside();
    const result = await runtime.exec("npm install evil-dep", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("npm error code EINVALIDPACKAGENAME");
    expect(result.stderr).toContain('"../../outside"');
    expect(registry.requestedPaths().some((path) => path.includes("outside"))).toBe(false);
    expect(await outside()).toEqual(before);
  });

  it("bin names and targets that are paths get no .bin entry; the well-formed bin does", async () => {
    const before = await outside();
    const result = await runtime.exec("npm install evil-bin", { cwd: dir });
    expect(result.exitCode).toBe(0);
    const bins = (await runtime.fs.readdir(`${dir}/node_modules/.bin`)).map((entry) => entry.name);
    expect(bins).toEqual(["fine"]);
    expect(await outside()).toEqual(before);
    expect(new TextDecoder().decode(await runtime.fs.readFile("/victim/file.txt"))).toBe("precious");
  });

  it("a package-lock.json location outside node_modules is refused by npm ci", async () => {
    const lock = {
      name: "app",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "app", version: "1.0.0" },
        "node_modules/../../victim": { version: "1.0.0", resolved: `${registry.url}/evil-dep/-/evil-dep-1.0.0.tgz` },
      },
    };
    await runtime.fs.writeFile(`${dir}/package-lock.json`, JSON.stringify(lock));
    const before = await outside();
    const result = await runtime.exec("npm ci", { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("EINVALIDPACKAGENAME");
    expect(await outside()).toEqual(before);
  });

  it("a hidden lockfile naming a folder outside node_modules never gets it removed", async () => {
    await runtime.fs.mkdir(`${dir}/node_modules`, { recursive: true });
    const hidden = {
      lockfileVersion: 3,
      requires: true,
      packages: { "node_modules/../../victim": { version: "1.0.0" }, "../victim": { version: "1.0.0" } },
    };
    await runtime.fs.writeFile(`${dir}/node_modules/.package-lock.json`, JSON.stringify(hidden));
    const before = await outside();
    const result = await runtime.exec("npm install", { cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(await outside()).toEqual(before);
  });
});
