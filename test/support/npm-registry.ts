/**
 * A registry stand-in for the npm tests: fixture packages written by the test, packed by the real
 * `npm pack` into real tarballs, and served on loopback as an npm registry serves them (a packument
 * per name at `/<name>` or `/@scope%2fname`, tarballs under `/-/`). A package may be served with a
 * wrong integrity on purpose, and a name the registry does not hold answers 404 as npm's does.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWebServer, type WebServer } from "./web-server.js";

export interface FixturePackage {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  license?: string;
  /** Extra files, path to content (package.json and index.js are written anyway). */
  files?: Record<string, string>;
  /** Serve a wrong integrity for this version (the tarball itself is right). */
  corruptIntegrity?: boolean;
  /** Serve these bytes as the tarball instead of what npm packed (for hand-made hostile archives). */
  replaceTarball?: Uint8Array;
}

export interface NpmRegistry {
  url: string;
  server: WebServer;
  /** Where the packed tarballs are, by `name@version`. */
  tarballs: Map<string, string>;
  /** Packuments requested, tarballs requested: what a test checks for "fetched nothing". */
  requestedPaths(): string[];
  /** Stop answering (every request fails at the socket) or answer again. */
  setOffline(offline: boolean): void;
  close(): Promise<void>;
}

interface Packed {
  fixture: FixturePackage;
  file: string;
  integrity: string;
  shasum: string;
}

function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

/** Writes each fixture's folder and packs all of them with one `npm pack`. */
async function packAll(fixtures: readonly FixturePackage[], dir: string): Promise<Packed[]> {
  const folders: string[] = [];
  for (const fixture of fixtures) {
    const folder = join(dir, "src", `${fixture.name.replace("/", "+")}@${fixture.version}`);
    await mkdir(folder, { recursive: true });
    const manifest = {
      name: fixture.name,
      version: fixture.version,
      description: `fixture ${fixture.name}`,
      main: "index.js",
      license: fixture.license ?? "MIT",
      ...(fixture.bin ? { bin: fixture.bin } : {}),
      ...(fixture.scripts ? { scripts: fixture.scripts } : {}),
      ...(fixture.dependencies ? { dependencies: fixture.dependencies } : {}),
      ...(fixture.optionalDependencies ? { optionalDependencies: fixture.optionalDependencies } : {}),
    };
    await writeFile(join(folder, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(folder, "index.js"), `module.exports = ${JSON.stringify(`${fixture.name}@${fixture.version}`)};\n`);
    for (const [path, content] of Object.entries(fixture.files ?? {})) {
      await mkdir(join(folder, path, ".."), { recursive: true });
      await writeFile(join(folder, path), content);
    }
    folders.push(folder);
  }
  const out = join(dir, "tarballs");
  await mkdir(out, { recursive: true });
  execFileSync("npm", ["pack", "--silent", "--pack-destination", out, ...folders], {
    cwd: dir,
    env: { ...process.env, npm_config_cache: join(dir, "pack-cache"), npm_config_update_notifier: "false" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const packed: Packed[] = [];
  for (const fixture of fixtures) {
    const file = join(out, tarballName(fixture.name, fixture.version));
    if (fixture.replaceTarball) await writeFile(file, fixture.replaceTarball);
    const bytes = await readFile(file);
    packed.push({
      fixture,
      file,
      integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
      shasum: createHash("sha1").update(bytes).digest("hex"),
    });
  }
  return packed;
}

export async function startNpmRegistry(
  fixtures: readonly FixturePackage[],
  distTags: Record<string, Record<string, string>> = {},
): Promise<NpmRegistry> {
  const dir = await mkdtemp(join(tmpdir(), "wb-npm-registry-"));
  const packed = await packAll(fixtures, dir);
  let offline = false;
  const byName = new Map<string, Packed[]>();
  for (const entry of packed) byName.set(entry.fixture.name, [...(byName.get(entry.fixture.name) ?? []), entry]);
  let base = "";
  const packument = (name: string) => {
    const versions = byName.get(name) ?? [];
    const latest = versions.at(-1)!.fixture.version;
    return {
      _id: name,
      name,
      "dist-tags": { latest, ...distTags[name] },
      versions: Object.fromEntries(
        versions.map(({ fixture, integrity, shasum }) => {
          const { files: _files, corruptIntegrity, replaceTarball: _replaced, ...manifest } = fixture;
          const hasInstallScript = Boolean(manifest.scripts?.preinstall || manifest.scripts?.install || manifest.scripts?.postinstall);
          return [
            fixture.version,
            {
              ...manifest,
              description: `fixture ${fixture.name}`,
              main: "index.js",
              license: fixture.license ?? "MIT",
              _id: `${name}@${fixture.version}`,
              ...(hasInstallScript ? { hasInstallScript: true } : {}),
              dist: {
                integrity: corruptIntegrity ? `sha512-${createHash("sha512").update("not the tarball").digest("base64")}` : integrity,
                shasum,
                tarball: `${base}/${name}/-/${name.split("/").at(-1)}-${fixture.version}.tgz`,
              },
            },
          ];
        }),
      ),
    };
  };
  const tarballs = new Map(packed.map((entry) => [`${entry.fixture.name}@${entry.fixture.version}`, entry.file]));
  const server = await startWebServer({});
  // Every path is routed here: packuments by (decoded) name, tarballs by the path their packument names.
  server.server.removeAllListeners("request");
  server.server.on("request", (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    server.requests.push({ method: request.method ?? "GET", path, headers: request.headers, body: "" });
    if (offline) {
      request.socket.destroy();
      return;
    }
    const cors = { "access-control-allow-origin": "*" };
    const tarball = /^\/(.+)\/-\/(.+\.tgz)$/.exec(path);
    if (tarball) {
      const entry = byName.get(tarball[1]!)?.find((candidate) => path.endsWith(`-${candidate.fixture.version}.tgz`));
      if (!entry) return response.writeHead(404, { "content-type": "application/json", ...cors }).end('{"error":"not found"}');
      void readFile(entry.file).then((bytes) =>
        response.writeHead(200, { "content-type": "application/octet-stream", ...cors }).end(bytes),
      );
      return;
    }
    const name = path.slice(1);
    if (!byName.has(name)) return response.writeHead(404, { "content-type": "application/json", ...cors }).end('{"error":"Not found"}');
    response.writeHead(200, { "content-type": "application/json", ...cors }).end(JSON.stringify(packument(name)));
  });
  base = server.url;
  return {
    url: server.url,
    server,
    tarballs,
    requestedPaths: () => server.requests.map((request) => request.path),
    setOffline: (value) => {
      offline = value;
    },
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
